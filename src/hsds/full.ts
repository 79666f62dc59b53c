import * as z from 'zod';
import { Location } from './location.ts';
import { Organization } from './organization.ts';
import { Service } from './service.ts';
import { ServiceAtLocation } from './service_at_location.ts';

/*
 * The fully nested shapes the API returns for single records (the official compiled schemas).
 * Each nesting stops where it would loop back: a service's organization has no services, a service's
 * services at locations have no service, and the service inside a service at location has no
 * services at locations.
 */

/** GET /services/{id}: the service object already nests everything (organization, locations, …). */
export const FullService = Service;

/** A location already nests its addresses, contacts, phones, schedules, languages and accessibility. */
export const FullLocation = Location;

/** GET /organizations/{id}?full_service=true: the organization with its services fully nested. */
export const FullOrganization = Organization.extend({
  services: z.array(FullService).optional().describe('Services the organization provides, fully nested.'),
}).describe('An organization with everything about it nested, including its full services.');

/** GET /organizations/{id} without full_service: the spec lets `services` hold only the service ids. */
export const OrganizationWithServiceIds = FullOrganization.extend({
  services: z
    .array(FullService.pick({ id: true }))
    .optional()
    .describe('Services the organization provides, by id only.'),
}).describe('An organization with everything about it nested, its services given by id only.');

/** GET /service_at_locations/{id}: the pairing with its location and its service fully nested. */
export const FullServiceAtLocation = ServiceAtLocation.extend({
  service: FullService.omit({ service_at_locations: true })
    .optional()
    .describe('The service, fully nested apart from its other locations.'),
}).describe('A service at a location with the location and the service fully nested.');
