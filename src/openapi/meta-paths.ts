import { MAX_PER_PAGE, pagingParameters } from '../meta/list-query.ts';
import { MetaEntry, MetaEntryInput, MetaEntryPage, MetaEntryUpdate } from './meta-schemas.ts';
import {
  jsonRequestBody,
  jsonResponse,
  protocolOperation,
  TRAILING_SLASH_NOTE,
} from './protocol-operation.ts';
import { idParameter } from './parameters.ts';
import { bodyRefused, protocolResponseRef } from './protocol-responses.ts';
import { queryParameter } from './query-parameter.ts';

const tags = ['Meta'];
const badRequest = protocolResponseRef('ProtocolBadRequest');
const notFound = protocolResponseRef('ProtocolNotFound');

/** The paths of the meta protocol (spec 4.6): the audit trail, and entries clients write. */
export function metaPaths() {
  const metaId = idParameter('meta entry', 'meta_id');
  return {
    '/meta/': {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'listMetaEntries',
        summary: 'List meta entries, newest first',
        parameters: [
          queryParameter('page', pagingParameters.page, 'Page number, from 1.'),
          queryParameter(
            'per_page',
            pagingParameters.per_page,
            `Entries on a page, at most ${MAX_PER_PAGE}.`,
          ),
        ],
        responses: {
          '200': jsonResponse('A page of meta entries, by `recorded_at`, newest first.', MetaEntryPage),
          '400': badRequest,
        },
      }),
      post: protocolOperation({
        tags,
        operationId: 'createMetaEntry',
        summary: 'Write a meta entry',
        requestBody: jsonRequestBody(MetaEntryInput),
        responses: {
          '200': jsonResponse('The new entry, secrets redacted.', MetaEntry),
          '400': badRequest,
          ...bodyRefused,
        },
      }),
    },
    '/meta/{meta_id}/': {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'getMetaEntry',
        summary: 'One meta entry',
        description:
          'An import answered 202 is followed here: `Waiting` until its report is in `response_body`.',
        parameters: [metaId],
        responses: { '200': jsonResponse('The entry.', MetaEntry), '404': notFound },
      }),
      put: protocolOperation({
        tags,
        operationId: 'updateMetaEntry',
        summary: 'Update a meta entry',
        parameters: [metaId],
        requestBody: jsonRequestBody(MetaEntryUpdate),
        responses: {
          '200': jsonResponse('The updated entry, secrets redacted.', MetaEntry),
          '400': badRequest,
          '404': notFound,
          ...bodyRefused,
        },
      }),
    },
  };
}
