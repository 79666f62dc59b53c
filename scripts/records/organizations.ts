import type { Location, Metadata, OrganizationProfile } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import type { OrganizationDefinition } from '../sample/organizations.ts';
import { termByCode } from '../sample/taxonomy.ts';
import { attributeFor, linkTypeOf } from './attributes.ts';
import { contactRecord, phoneRecord, type ContactInput } from './contact-points.ts';

export interface OrganizationContext {
  /** Decided by the caller, because the organization's locations already refer to it. */
  id: string;
  parentId?: string;
  locations: Location[];
  phoneNumber: string;
  contacts: ContactInput[];
  metadata?: (organizationId: string) => Metadata[];
}

export function websiteOf(definition: OrganizationDefinition): string {
  return `https://${definition.domain}.example.org`;
}

/** An organization's own fields and nested arrays; its services are built separately. */
export function organizationProfile(
  definition: OrganizationDefinition,
  context: OrganizationContext,
  newId: NewId,
): OrganizationProfile {
  const { id } = context;
  const website = websiteOf(definition);
  return {
    id,
    name: definition.name,
    ...(definition.alternateName ? { alternate_name: definition.alternateName } : {}),
    description: definition.description,
    email: `info@${definition.domain}.example.org`,
    website,
    ...(definition.additionalWebsites
      ? {
          additional_websites: definition.additionalWebsites.map((link) => ({
            id: newId(`website/${link.path}`),
            label: link.label,
            url: `${website}${link.path}`,
          })),
        }
      : {}),
    year_incorporated: definition.yearIncorporated,
    legal_status: definition.legalStatus,
    logo: `${website}/logo.png`,
    uri: `https://registry.example.org/us-ein/${definition.ein}`,
    ...(context.parentId ? { parent_organization_id: context.parentId } : {}),
    funding: definition.funding.map((source, index) => ({ id: newId(`funding/${index}`), source })),
    contacts: context.contacts.map((contact) => contactRecord(contact, newId)),
    phones: [
      phoneRecord(
        { key: 'main', number: context.phoneNumber, type: 'voice', description: 'Main office line.' },
        newId,
      ),
    ],
    locations: context.locations,
    programs: definition.programs.map((program) => ({
      id: newId(`program/${program.key}`),
      organization_id: id,
      name: program.name,
      description: program.description,
    })),
    organization_identifiers: [
      {
        id: newId('identifier/ein'),
        identifier_scheme: 'US-EIN',
        identifier_type: 'Employer Identification Number',
        identifier: definition.ein,
      },
      ...(definition.stateRegistration
        ? [
            {
              id: newId('identifier/state'),
              identifier_type: definition.stateRegistration.type,
              identifier: definition.stateRegistration.identifier,
            },
          ]
        : []),
    ],
    attributes: definition.terms.map((code) => {
      const term = termByCode(code);
      return attributeFor(term, { entity: 'organization', id, type: linkTypeOf(term) }, newId);
    }),
    ...(context.metadata ? { metadata: context.metadata(id) } : {}),
  };
}
