import { loadConfig } from '../../src/config.ts';
import { openApiDocument } from '../../src/openapi/document.ts';

/** The management prefix of the default configuration, as the test app serves it. */
export const DEFAULT_MANAGEMENT_PREFIX = loadConfig({}).managementPrefix;

/** The document as a server with the default configuration describes itself at `baseUrl`. */
export const defaultDocument = (baseUrl: string) => openApiDocument(baseUrl, DEFAULT_MANAGEMENT_PREFIX);
