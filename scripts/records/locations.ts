import type { Location, Metadata } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import { accessibilityBySiteKind } from '../sample/accessibility.ts';
import type { City } from '../sample/cities.ts';
import { siteHours, type OpeningHours } from '../sample/opening-hours.ts';
import type { Site, SiteKind } from '../sample/sites.ts';
import { termByCode } from '../sample/taxonomy.ts';
import { attributeFor } from './attributes.ts';
import { languageRecords, phoneRecord } from './contact-points.ts';
import { schedulesFor } from './schedules.ts';

const KIND_LABELS: Record<SiteKind, string> = {
  library: 'public library',
  'community-centre': 'community centre',
  clinic: 'medical campus',
  'food-bank': 'warehouse and distribution centre',
};

export interface SiteLocationInput {
  site: Site;
  city: City;
  organizationId: string;
  organizationName: string;
  phoneNumber: string;
  languageCodes: string[];
  /** Category terms of what is offered at the site. */
  termCodes: string[];
  validFrom: string;
  metadata?: (locationId: string) => Metadata[];
}

export function siteLocation(input: SiteLocationInput, newId: NewId): Location {
  const { site, city } = input;
  const id = newId('location');
  const hours: OpeningHours[] = siteHours[site.kind];
  return {
    id,
    organization_id: input.organizationId,
    location_type: 'physical',
    name: site.name,
    description: `${input.organizationName} at the ${site.name}, a ${KIND_LABELS[site.kind]} in ${site.neighbourhood}, ${city.name}.`,
    ...(site.transportation ? { transportation: site.transportation } : {}),
    latitude: site.latitude,
    longitude: site.longitude,
    languages: languageRecords(input.languageCodes, newId),
    addresses: [
      {
        id: newId('address'),
        address_1: site.address,
        city: site.postalCity ?? city.name,
        region: site.neighbourhood,
        state_province: city.state,
        postal_code: site.postalCode,
        country: 'US',
        address_type: 'physical',
      },
    ],
    phones: [
      phoneRecord(
        { key: 'front-desk', number: input.phoneNumber, type: 'voice', description: 'Front desk.' },
        newId,
      ),
    ],
    schedules: schedulesFor(hours, city.utcOffset, input.validFrom, newId),
    accessibility: accessibilityBySiteKind[site.kind].map((note, index) => ({
      id: newId(`accessibility/${index}`),
      ...note,
    })),
    attributes: input.termCodes.map((code) =>
      attributeFor(termByCode(code), { entity: 'location', id, type: 'category' }, newId),
    ),
    ...(input.metadata ? { metadata: input.metadata(id) } : {}),
  };
}

export interface VirtualLocationInput {
  organizationId: string;
  name: string;
  description: string;
  url: string;
  languageCodes: string[];
}

export function virtualLocation(input: VirtualLocationInput, newId: NewId): Location {
  return {
    id: newId('location'),
    organization_id: input.organizationId,
    location_type: 'virtual',
    url: input.url,
    name: input.name,
    description: input.description,
    languages: languageRecords(input.languageCodes, newId),
    addresses: [],
    phones: [],
    schedules: [],
    accessibility: [],
    attributes: [],
  };
}
