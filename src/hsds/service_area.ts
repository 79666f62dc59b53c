import * as z from 'zod';
import { attributesField } from './attribute.ts';
import { Uuid } from './formats.ts';
import { metadataField } from './metadata.ts';

/** The geographic area a service is available in. */
export const ServiceArea = z
  .looseObject({
    id: Uuid.describe('Unique identifier of the service area.'),
    service_id: Uuid.describe('Identifier of the service available in this area.').optional(),
    name: z.string().describe('Name of the area.').optional(),
    description: z.string().describe('The area in words.').optional(),
    extent: z.string().describe('The area itself, in the encoding given by extent_type.').optional(),
    // Free text in the official schema (e.g. geojson, topojson, kml, text); no allowed values are fixed.
    extent_type: z.string().describe('Encoding of extent, e.g. geojson.').optional(),
    // The official schema gives no format for this uri.
    uri: z.string().describe('Where a definition of the area is published.').optional(),
    attributes: attributesField,
    metadata: metadataField,
  })
  .describe('A geographic area a service is available in.');

/** The `service_areas` field as services and services at locations declare it. */
export const serviceAreasField = z
  .array(ServiceArea)
  .optional()
  .describe('Geographic areas the service is available in.');
