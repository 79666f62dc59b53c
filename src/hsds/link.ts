import * as z from 'zod';
import { Uri, Uuid } from './formats.ts';

/**
 * A labelled web address (`additional_urls` of services, `additional_websites` of organizations).
 * Not in the shared 3.0 schemas; fields from the spec (part 2), required fields as in the later
 * official HSDS schema for it (id and url).
 */
export const Link = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the link.'),
    label: z.string().describe('What the link leads to, e.g. Website.').optional(),
    url: Uri.describe('The web address.'),
    organization_id: Uuid.describe('Identifier of the organization the link belongs to.').optional(),
    service_id: Uuid.describe('Identifier of the service the link belongs to.').optional(),
  })
  .describe('A labelled web address.');
