import { JSON_TYPES, ImportQuery, NDJSON_TYPES } from '../ingest/http-import.ts';
import { recordSchema, recordTypes } from '../ingest/record-type.ts';
import { schemaRef } from './components.ts';
import { ImportReport } from './import-report-schema.ts';
import { MetaEntry } from './meta-schemas.ts';
import { jsonResponse, protocolOperation } from './protocol-operation.ts';
import { protocolResponseRef } from './protocol-responses.ts';
import { queryParameter } from './query-parameter.ts';

const descriptions: Record<keyof typeof ImportQuery.shape, string> = {
  type: 'The type of every record, when their shape does not tell it (as the CLI’s --type).',
  dry_run: 'Validate and report, write nothing.',
  wait: 'Answer with the report once the import has run, instead of 202 at once.',
  source:
    'The source the records are loaded for (as the CLI’s --source), `default` if not given: the record ' +
    'of each input line, array item or table row remembers every source that loaded it, and ' +
    '`GET /management/sources/` lists the sources.',
  mode:
    '`replace` (as the CLI’s --replace): a full refresh of the source. Once the records are loaded, what ' +
    'the source had loaded and the body did not contain is deleted: its services with their services at ' +
    'location, and the organizations, locations, programs, taxonomies and taxonomy terms no record of any source ' +
    'refers to any more; records another source also loads are kept. Nothing is deleted when any record ' +
    'was rejected, nor, without `force`, when the body lacks more than half of the source’s records ' +
    '(`HSDS_REPLACE_MAX_MISSING`); the report’s `replace` says what was deleted, or why nothing was. ' +
    'With `dry_run`, it says what would be deleted.',
  force: 'With `mode=replace`: delete whatever share of the source’s records the body lacks.',
};

/** A record of any type an import takes, as its type's schema: the nested forms the API serves. */
const anyRecord = { anyOf: recordTypes.map((type) => schemaRef(recordSchema[type])) };

const media = (types: Set<string>, schema: object) =>
  Object.fromEntries([...types].map((type) => [type, { schema }]));

/** `POST /import`: bulk loading over HTTP (our extension), as `npm run import` loads files. */
export function importPaths() {
  return {
    '/import': {
      post: protocolOperation({
        tags: ['Bulk loading'],
        operationId: 'importRecords',
        summary: 'Load HSDS records: insert new ones, update changed ones',
        description:
          'Imports run one at a time, in order of arrival, with the validation, report and idempotency of ' +
          '`npm run import`. The whole body is received before anything is written. A record that fails ' +
          'validation is rejected alone and counted in the report. Unknown query parameters are refused. ' +
          'The body is UTF-8 (a byte order mark is dropped): an NDJSON line with bytes that are not ' +
          'UTF-8 is rejected alone, with `invalid UTF-8 at byte N` (N counted from 0 at the start of the ' +
          'body); a JSON body with such bytes is a 400 saying the same; a body in UTF-16 or UTF-32 (told ' +
          'by its byte order mark or the NUL bytes of its first character) is a 415 naming its encoding, ' +
          'and nothing is imported. Report texts write control characters as `\\u0000`…`\\u009f`.',
        parameters: Object.entries(ImportQuery.shape).map(([name, schema]) =>
          queryParameter(name, schema, descriptions[name as keyof typeof descriptions]),
        ),
        requestBody: {
          required: true,
          description:
            'JSON: one record or an array of records. NDJSON: a record a line. Nulls are dropped before ' +
            'validation; uncompressed only. Extension fields are kept, but a record with a field name ' +
            'starting with `_` or `$`, or holding a NUL character, is rejected (such names cannot be stored).',
          content: {
            ...media(JSON_TYPES, { anyOf: [anyRecord, { type: 'array', items: anyRecord }] }),
            ...media(NDJSON_TYPES, anyRecord),
          },
        },
        responses: {
          '200': jsonResponse('With wait=true: the import report.', ImportReport),
          '202': jsonResponse(
            'The body is received: the import will run. Its meta entry, `Waiting`, becomes `Complete` with ' +
              'the report (or `{"failed": true, "error": …}`) as its `response_body`.',
            MetaEntry,
            {
              Location: {
                description:
                  'The meta entry of the import, to poll: /meta/{id}/, under HSDS_PUBLIC_URL when the ' +
                  'server is configured with one.',
                schema: { type: 'string' },
              },
            },
          ),
          '400': protocolResponseRef('ProtocolBadRequest'),
          '408': protocolResponseRef('ImportTimeout'),
          '413': protocolResponseRef('ImportTooLarge'),
          '415': protocolResponseRef('ImportUnsupportedMediaType'),
          '503': protocolResponseRef('ImportUnavailable'),
        },
      }),
    },
  };
}
