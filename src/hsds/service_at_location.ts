import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { contactsField } from './contact.ts';
import { Uuid } from './formats.ts';
import { Location } from './location.ts';
import { metadataField } from './metadata.ts';
import { phonesField } from './phone.ts';
import { schedulesField } from './schedule.ts';
import { serviceAreasField } from './service_area.ts';

/**
 * A service delivered at one location, with the details particular to that pairing. The nested
 * `service` belongs only to the fully nested form (see full.ts), which avoids a service→location→service cycle.
 */
export const ServiceAtLocation = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the service at location.'),
    service_id: Uuid.describe('Identifier of the service.').optional(),
    location_id: Uuid.describe('Identifier of the location.').optional(),
    description: z.string().describe('What is particular to the service at this location.').optional(),
    // Not in the shared 3.0 schema; the spec (part 9) lists it among the current additions.
    service_areas: serviceAreasField,
    contacts: contactsField,
    phones: phonesField,
    schedules: schedulesField,
    location: Location.optional().describe('The location, fully nested.'),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A service delivered at a location.');
