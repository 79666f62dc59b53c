import { ChangesQuery, DEFAULT_CHANGES, MAX_CHANGES } from '../directory/changes-handler.ts';
import { ChangeLine } from './change-schemas.ts';
import { schemaRef } from './components.ts';
import { queryParameter } from './query-parameter.ts';
import { responseRef } from './responses.ts';

const descriptions: Record<keyof typeof ChangesQuery.shape, string> = {
  after:
    'A cursor the feed gave (a line’s `cursor`): the changes after it. Without it, the feed from its ' +
    'start. With `Accept: text/event-stream`, a `Last-Event-ID` header wins over it.',
  limit: `At most this many changes in the answer (default ${DEFAULT_CHANGES}, at most ${MAX_CHANGES}); live, in each read of the feed.`,
};

/** `GET /changes`: the change feed, our extension for keeping a copy of the directory in sync. */
export function changesPaths() {
  return {
    '/changes': {
      get: {
        tags: ['changes'],
        operationId: 'getChanges',
        summary: 'What changed since a cursor: the change feed',
        description:
          'Each change to what the directory serves, in the order it was written: an `upsert` when what ' +
          'is served of a record changed (a re-import that changes nothing adds none), a `delete` when a ' +
          'record is no longer served. An organization’s `services` are its services’ ids: it is upserted ' +
          'when a service joins or leaves it. A record keeps only its latest change, so the feed read ' +
          'from its start lists each record served now (once; twice at most after a crash, or when it was ' +
          'deleted and loaded again: its delete, then its upsert), and the ' +
          'deletions of the last HSDS_TOMBSTONE_DAYS days. To keep a copy: read from the start, then ' +
          'pass the last line’s `cursor` as `after`, again and again; an empty answer means the copy is ' +
          'up to date. A change is in the feed once its record is served as it says: on `upsert`, fetch ' +
          'the record; one that answers 404 or 410 by then was deleted since (its `delete` follows). ' +
          'With `Accept: text/event-stream` the answer is a live stream of server-sent events (`id:` the ' +
          'cursor, `data:` the change), resumed after `Last-Event-ID`, with a comment line every 15 s ' +
          'when nothing else was sent. See /profile for the rules.',
        parameters: [
          ...Object.entries(ChangesQuery.shape).map(([name, schema]) =>
            queryParameter(name, schema, descriptions[name as keyof typeof descriptions]),
          ),
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description:
              'With `Accept: text/event-stream`: the cursor of the last event received, sent by a ' +
              'reconnecting client; the stream resumes after it.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'The changes after the cursor, one JSON object a line; none when up to date.',
            headers: { 'Cache-Control': { $ref: '#/components/headers/Cache-Control' } },
            content: {
              'application/x-ndjson': { schema: schemaRef(ChangeLine) },
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description: 'Server-sent events, each change’s `data` a ChangeLine.',
                },
              },
            },
          },
          '400': responseRef('BadRequest'),
          '410': responseRef('CursorGone'),
          '503': responseRef('Unavailable'),
        },
      },
    },
  };
}
