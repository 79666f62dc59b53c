import type { Change } from '../records/metadata.ts';

// Provenance records for a few objects of the sample, keyed by the sample key of the object they
// describe. Replacement values match the current data.

export const changeLog: { key: string; change: Change }[] = [
  {
    key: 'sea-food-network',
    change: {
      resourceType: 'organization',
      date: '2025-02-03',
      action: 'update',
      field: 'name',
      previous: 'Rainier Valley Food Network',
      replacement: 'Puget Sound Neighbors Food Network',
      by: 'Amina Hassan',
    },
  },
  {
    key: 'chi-pilsen-legal',
    change: {
      resourceType: 'organization',
      date: '2025-01-15',
      action: 'create',
      field: 'id',
      previous: '',
      replacement: 'Pilsen Immigrant Legal Resource Center',
      by: 'Luis Morales',
    },
  },
  {
    key: 'sea-eviction-defense',
    change: {
      resourceType: 'service',
      date: '2025-06-18',
      action: 'update',
      field: 'eligibility_description',
      previous: 'Tenants in Seattle with a household income below 125% of the federal poverty level.',
      replacement: 'Tenants in Seattle with a household income below 200% of the federal poverty level.',
      by: 'Hodan Abdi',
    },
  },
  {
    key: 'pdx-immunization-clinic',
    change: {
      resourceType: 'service',
      date: '2026-06-01',
      action: 'update',
      field: 'status',
      previous: 'active',
      replacement: 'temporarily closed',
      by: 'Grace Kim',
    },
  },
  {
    key: 'aus-moratorium-hotline',
    change: {
      resourceType: 'service',
      date: '2025-04-30',
      action: 'update',
      field: 'status',
      previous: 'active',
      replacement: 'defunct',
      by: 'Rosa Garcia',
    },
  },
  {
    key: 'pdx-midland-library',
    change: {
      resourceType: 'location',
      date: '2025-09-12',
      action: 'update',
      field: 'transportation',
      previous: 'Bus line 72 stops at the front door.',
      replacement: 'Bus line 71 stops at the front door.',
      by: 'Minh Tran',
    },
  },
];

export function changesFor(key: string): Change[] {
  return changeLog.filter((entry) => entry.key === key).map((entry) => entry.change);
}
