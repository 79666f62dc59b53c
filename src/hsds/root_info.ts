import * as z from 'zod';
import { Uri } from './formats.ts';

/** GET /: which specification version and profile the API follows, and where its OpenAPI document is. */
export const RootInfo = z
  .looseObject({
    version: z.string().describe('Version of the specification the API follows.').optional(),
    profile: Uri.describe('Where the HSDS profile the API uses is described.').optional(),
    openapi_url: Uri.describe('Where the OpenAPI document of the API is.').optional(),
  })
  .describe('Information about the API.');
