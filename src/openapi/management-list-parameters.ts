import { listParametersSchema, MAX_PER_PAGE, type ListFields } from '../management/list-parameters.ts';
import { queryParameter } from './query-parameter.ts';

type ListParameterName = keyof ReturnType<typeof listParametersSchema>['shape'];

const names = (fields: readonly string[]) => fields.map((field) => `\`${field}\``).join(', ');

const descriptions: Record<ListParameterName, (fields: ListFields) => string> = {
  query: (fields) => `Text found case-insensitively, and literally, in ${names(fields.searched)}.`,
  queries: (fields) =>
    `Comma-separated \`field:value\` pairs, each an exact match on one of ${names(fields.filterable)}. ` +
    'A comma in a value is written `\\,`, and a backslash before a comma or another backslash `\\\\`.',
  page: () => 'Page number, from 1.',
  per_page: () => `Items on a page, at most ${MAX_PER_PAGE}.`,
  sortby: (fields) => `The field to sort by: ${names(fields.sortable)}; ties are ordered by \`id\`.`,
  order: () => 'Sort order.',
};

/** The list parameters (spec 4.5) of a management list of records with these fields; all must hold. */
export function managementListParameters(fields: ListFields) {
  return Object.entries(listParametersSchema(fields).shape).map(([name, schema]) =>
    queryParameter(name, schema, descriptions[name as ListParameterName](fields)),
  );
}
