import type { CapacityUnit } from '../hsds/types.ts';
import { stableId } from '../hsds/uuid.ts';

// Units in which services count what they can offer (spec part 2's Capacity.unit).

function unit(identifier: string, name: string): CapacityUnit {
  return {
    id: stableId(`unit/${identifier}`),
    name,
    scheme: 'SAMPLE',
    identifier,
    uri: `https://taxonomy.example.org/units/${identifier}`,
  };
}

export const capacityUnits = {
  bed: unit('bed', 'Bed'),
  room: unit('room', 'Family room'),
  appointment: unit('appointment', 'Appointment'),
  seat: unit('seat', 'Class seat'),
};

export type CapacityUnitKey = keyof typeof capacityUnits;
