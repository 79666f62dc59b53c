import type {
  Location,
  Metadata,
  OrganizationProfile,
  Program,
  Service,
  ServiceArea,
} from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import { capacityUnits } from '../sample/capacity-units.ts';
import type { City } from '../sample/cities.ts';
import { serviceHours } from '../sample/opening-hours.ts';
import type { AreaDefinition, CostDefinition, ServiceDefinition } from '../sample/services.ts';
import { termByCode } from '../sample/taxonomy.ts';
import { attributeFor, linkTypeOf } from './attributes.ts';
import { contactRecord, languageRecords, phoneRecord, type ContactInput } from './contact-points.ts';
import { schedulesFor } from './schedules.ts';
import { cityArea, neighbourhoodArea, zipCodeArea } from './service-areas.ts';
import { slug, withUtcOffset } from './text.ts';

export interface ServiceContext {
  organization: OrganizationProfile;
  city: City;
  /** Full locations of the organization where the service is delivered. */
  locations: Location[];
  program?: Program;
  lastModified: string;
  validFrom: string;
  phoneNumber: string;
  contact: ContactInput;
  metadata?: (serviceId: string) => Metadata[];
}

const FREE: CostDefinition = { option: 'Free for everyone', amount: 0, description: 'no charge' };

function feesDescription(costs: CostDefinition[]): string {
  if (costs.length === 0) return 'Free of charge.';
  return costs.map((cost) => `${cost.option}: $${cost.amount} ${cost.description}.`).join(' ');
}

function serviceArea(area: AreaDefinition, city: City, newId: NewId): ServiceArea {
  if ('city' in area) return cityArea(city, newId);
  if ('zipCodes' in area) return zipCodeArea(area.name, area.zipCodes, newId);
  const neighbourhood = city.neighbourhoods.find((candidate) => candidate.key === area.neighbourhood);
  if (!neighbourhood) throw new Error(`Unknown neighbourhood ${area.neighbourhood} in ${city.key}`);
  return neighbourhoodArea(city, neighbourhood, newId);
}

/** A full service, without its organization, from its definition and where and by whom it is run. */
export function buildService(definition: ServiceDefinition, context: ServiceContext, newId: NewId): Service {
  const id = newId('service');
  const { organization, city } = context;
  const host = new URL(organization.website).host;
  const costs = definition.costs ?? [];
  const languageCodes = definition.languages;
  return {
    id,
    organization_id: organization.id,
    ...(context.program ? { program_id: context.program.id } : {}),
    name: definition.name,
    ...(definition.alternateName ? { alternate_name: definition.alternateName } : {}),
    description: definition.description,
    url: `${organization.website}/services/${slug(definition.name)}`,
    ...(definition.links
      ? {
          additional_urls: definition.links.map((link) => ({
            id: newId(`link/${link.path}`),
            label: link.label,
            url: `${organization.website}${link.path}`,
          })),
        }
      : {}),
    email: `${slug(definition.name).slice(0, 40).replace(/-$/, '')}@${host}`,
    status: definition.status ?? 'active',
    ...(definition.interpretation ? { interpretation_services: definition.interpretation } : {}),
    application_process: definition.application,
    fees_description: feesDescription(costs),
    ...(definition.accreditations ? { accreditations: definition.accreditations } : {}),
    eligibility_description: definition.eligibility,
    ...(definition.minimumAge === undefined ? {} : { minimum_age: definition.minimumAge }),
    ...(definition.maximumAge === undefined ? {} : { maximum_age: definition.maximumAge }),
    assured_date: context.lastModified.slice(0, 10),
    assurer_email: `data@${host}`,
    ...(definition.alert ? { alert: definition.alert } : {}),
    last_modified: context.lastModified,
    phones: [
      phoneRecord(
        {
          key: 'main',
          number: context.phoneNumber,
          type: definition.sites.includes('virtual') ? 'text' : 'voice',
          description: `${definition.name} line.`,
          ...(languageCodes.length > 1 ? { languageCodes } : {}),
        },
        newId,
      ),
    ],
    schedules: schedulesFor(serviceHours[definition.hours], city.utcOffset, context.validFrom, newId),
    service_areas: (definition.areas ?? []).map((area) => serviceArea(area, city, newId)),
    service_at_locations: context.locations.map((location) => ({
      id: newId(`service-at-location/${location.id}`),
      service_id: id,
      location_id: location.id,
      description: `${definition.name} at ${location.name}.`,
      location,
    })),
    languages: languageRecords(languageCodes, newId, 'Spoken by staff or trained volunteers.'),
    funding: organization.funding
      .slice(0, 1)
      .map((funding) => ({ id: newId('funding/0'), source: funding.source })),
    cost_options: (costs.length > 0 ? costs : [FREE]).map((cost, index) => ({
      id: newId(`cost/${index}`),
      valid_from: context.validFrom,
      option: cost.option,
      currency: 'USD',
      amount: cost.amount,
      amount_description: cost.description,
    })),
    ...(context.program ? { program: context.program } : {}),
    required_documents: (definition.documents ?? []).map((document, index) => ({
      id: newId(`document/${index}`),
      document,
    })),
    contacts: [contactRecord(context.contact, newId)],
    ...(definition.capacity
      ? {
          capacities: [
            {
              id: newId('capacity/0'),
              unit: capacityUnits[definition.capacity.unit],
              available: definition.capacity.available,
              maximum: definition.capacity.maximum,
              description: definition.capacity.description,
              updated: withUtcOffset(context.lastModified, city.utcOffset),
            },
          ],
        }
      : {}),
    attributes: definition.terms.map((code) => {
      const term = termByCode(code);
      return attributeFor(term, { entity: 'service', id, type: linkTypeOf(term) }, newId);
    }),
    ...(context.metadata ? { metadata: context.metadata(id) } : {}),
  };
}
