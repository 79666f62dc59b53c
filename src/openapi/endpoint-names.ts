import type { Endpoint } from '../directory/endpoints.ts';

const words = (name: string) => name.replace(/_/g, ' ');
const pascalCase = (name: string) =>
  name.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase());

/** What an endpoint's operations are called: its tag, and words and identifiers for one record and many. */
export function endpointNames(endpoint: Endpoint) {
  const collection = endpoint.path.slice(1);
  return {
    tag: collection,
    one: words(endpoint.entity),
    many: words(collection),
    oneId: pascalCase(endpoint.entity),
    manyId: pascalCase(collection),
  };
}
