import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Capacity } from './capacity.ts';
import { contactsField } from './contact.ts';
import { CostOption } from './cost_option.ts';
import { Email, IsoDate, IsoDateTime, Uri, Uuid } from './formats.ts';
import { fundingField } from './funding.ts';
import { languagesField } from './language.ts';
import { Link } from './link.ts';
import { metadataField } from './metadata.ts';
import { Organization } from './organization.ts';
import { phonesField } from './phone.ts';
import { Program } from './program.ts';
import { RequiredDocument } from './required_document.ts';
import { schedulesField } from './schedule.ts';
import { ServiceAtLocation } from './service_at_location.ts';
import { serviceAreasField } from './service_area.ts';

/** Service statuses the official schema allows. */
export const ServiceStatus = z
  .enum(['active', 'inactive', 'defunct', 'temporarily closed'])
  .describe('Whether the service is currently delivered.');

/**
 * A service provided by an organization, with everything about it nested: this is the fully nested
 * service of GET /services/{id} (the official compiled service schema).
 */
export const Service = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the service.'),
    organization_id: Uuid.describe('Identifier of the organization providing the service.').optional(),
    program_id: Uuid.describe('Identifier of the program the service belongs to.').optional(),
    name: z.string().describe('Official or public name of the service.'),
    alternate_name: z.string().describe('Another name the service is known by.').optional(),
    description: z.string().describe('What the service does.').optional(),
    url: Uri.describe('Web page of the service.').optional(),
    // Not in the shared 3.0 schema; the spec (part 9) lists it among the current additions.
    additional_urls: z.array(Link).optional().describe('Further web pages about the service.'),
    email: Email.describe('Email address of the service.').optional(),
    status: ServiceStatus,
    interpretation_services: z.string().describe('Interpretation services available.').optional(),
    application_process: z.string().describe('Steps needed to use the service.').optional(),
    fees_description: z.string().describe('Charges for using the service, in words.').optional(),
    wait_time: z.string().describe('DEPRECATED: expected wait before the service is received.').optional(),
    fees: z.string().describe('DEPRECATED: charges for using the service.').optional(),
    accreditations: z.string().describe('Accreditations of the service.').optional(),
    eligibility_description: z.string().describe('Who the service is for.').optional(),
    // Numbers, not integers, in the official schema.
    minimum_age: z.number().describe('Minimum age to be eligible.').optional(),
    maximum_age: z.number().describe('Maximum age to be eligible.').optional(),
    assured_date: IsoDate.describe('Date the information was last checked.').optional(),
    assurer_email: Email.describe('Email address of who last checked the information.').optional(),
    licenses: z.string().describe('DEPRECATED: licenses to operate.').optional(),
    alert: z.string().describe('Short-term notice about the service.').optional(),
    last_modified: IsoDateTime.describe(
      'When the service or anything about it last changed, to the millisecond.',
    ).optional(),
    phones: phonesField,
    schedules: schedulesField,
    service_areas: serviceAreasField,
    service_at_locations: z
      .array(ServiceAtLocation)
      .optional()
      .describe('Locations the service is delivered at, each with its location nested.'),
    languages: languagesField,
    organization: Organization.optional().describe('The organization providing the service.'),
    funding: fundingField,
    cost_options: z.array(CostOption).optional().describe('Structured prices of the service.'),
    program: Program.optional().describe('The program the service belongs to.'),
    required_documents: z
      .array(RequiredDocument)
      .optional()
      .describe('Documents required to use the service.'),
    contacts: contactsField,
    // Not in the shared 3.0 schema; the spec (parts 2 and 9) lists it among the current additions.
    capacities: z.array(Capacity).optional().describe('How much of the service is available.'),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A service provided by an organization.');
