import type { Metadata } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';

export interface Change {
  resourceType: 'organization' | 'service' | 'location';
  date: string;
  action: 'create' | 'update';
  field: string;
  previous: string;
  replacement: string;
  by: string;
}

export function metadataRecords(resourceId: string, changes: Change[], newId: NewId): Metadata[] {
  return changes.map((change, index) => ({
    id: newId(`metadata/${index}`),
    resource_id: resourceId,
    resource_type: change.resourceType,
    last_action_date: change.date,
    last_action_type: change.action,
    field_name: change.field,
    previous_value: change.previous,
    replacement_value: change.replacement,
    updated_by: change.by,
  }));
}
