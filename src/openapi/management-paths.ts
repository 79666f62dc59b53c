import { accessEntryListFields } from '../management/access-entries.ts';
import { userListFields } from '../management/users.ts';
import { sourceListFields } from '../management/sources.ts';
import {
  AccessEntry,
  AccessEntryInput,
  AccessEntryPage,
  Source,
  SourcePage,
  User,
  UserInput,
  UserPage,
  UserUpdate,
} from './management-schemas.ts';
import { managementListParameters } from './management-list-parameters.ts';
import {
  jsonRequestBody,
  jsonResponse,
  protocolOperation,
  TRAILING_SLASH_NOTE,
} from './protocol-operation.ts';
import { idParameter } from './parameters.ts';
import { bodyRefused, protocolResponseRef } from './protocol-responses.ts';

const tags = ['Management'];

const badRequest = protocolResponseRef('ProtocolBadRequest');
const notFound = protocolResponseRef('ProtocolNotFound');

/**
 * The paths of the management protocol (spec 4.5) under `prefix` (HSDS_MANAGEMENT_PREFIX): users, and
 * access entries (the spec's "services").
 */
export function managementPaths(prefix: string) {
  const userId = idParameter('user', 'user_id');
  const entryId = idParameter('access entry', 'service_id');
  return {
    [`${prefix}/users/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'listUsers',
        summary: 'List users',
        parameters: managementListParameters(userListFields),
        responses: {
          '200': jsonResponse('A page of users, codes redacted.', UserPage),
          '400': badRequest,
        },
      }),
      post: protocolOperation({
        tags,
        operationId: 'createUser',
        summary: 'Create a user',
        requestBody: jsonRequestBody(UserInput),
        responses: {
          '200': jsonResponse('The new user, code redacted.', User),
          '400': badRequest,
          '409': protocolResponseRef('Conflict'),
          ...bodyRefused,
        },
      }),
    },
    [`${prefix}/users/auth/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'authenticateUser',
        summary: "A user's access entries, for their login and code",
        description:
          'Takes its credentials from the query string only (which is never logged), not from headers, and ' +
          'needs no grant. Failed attempts count towards 429 as everywhere else.',
        security: [],
        parameters: [
          {
            name: 'login',
            in: 'query',
            required: true,
            description: 'The login of the user.',
            schema: { type: 'string', minLength: 1 },
          },
          {
            name: 'code',
            in: 'query',
            required: true,
            description: "The user's code.",
            schema: { type: 'string', minLength: 1 },
          },
          ...managementListParameters(accessEntryListFields),
        ],
        responses: {
          '200': jsonResponse("A page of the user's access entries.", AccessEntryPage),
          '400': badRequest,
        },
      }),
    },
    [`${prefix}/users/{user_id}/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'getUser',
        summary: 'One user',
        parameters: [userId],
        responses: { '200': jsonResponse('The user, code redacted.', User), '404': notFound },
      }),
      put: protocolOperation({
        tags,
        operationId: 'replaceUser',
        summary: "Replace a user's fields",
        parameters: [userId],
        requestBody: jsonRequestBody(UserUpdate),
        responses: {
          '200': jsonResponse('The updated user, code redacted.', User),
          '400': badRequest,
          '404': notFound,
          '409': protocolResponseRef('Conflict'),
          ...bodyRefused,
        },
      }),
      delete: protocolOperation({
        tags,
        operationId: 'deleteUser',
        summary: 'Delete a user, and their access entries',
        parameters: [userId],
        responses: {
          '200': jsonResponse('The deleted user, code redacted.', User),
          '404': notFound,
        },
      }),
    },
    [`${prefix}/services/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'listAccessEntries',
        summary: 'List access entries',
        parameters: managementListParameters(accessEntryListFields),
        responses: {
          '200': jsonResponse('A page of access entries.', AccessEntryPage),
          '400': badRequest,
        },
      }),
      post: protocolOperation({
        tags,
        operationId: 'createAccessEntry',
        summary: 'Grant a user a path and verb',
        requestBody: jsonRequestBody(AccessEntryInput),
        responses: {
          '200': jsonResponse('The new access entry.', AccessEntry),
          '400': badRequest,
          '409': protocolResponseRef('Conflict'),
          ...bodyRefused,
        },
      }),
    },
    [`${prefix}/services/{service_id}/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'getAccessEntry',
        summary: 'One access entry',
        parameters: [entryId],
        responses: { '200': jsonResponse('The access entry.', AccessEntry), '404': notFound },
      }),
      put: protocolOperation({
        tags,
        operationId: 'replaceAccessEntry',
        summary: "Replace an access entry's fields",
        description: 'A `name` left out is removed.',
        parameters: [entryId],
        requestBody: jsonRequestBody(AccessEntryInput),
        responses: {
          '200': jsonResponse('The updated access entry.', AccessEntry),
          '400': badRequest,
          '404': notFound,
          ...bodyRefused,
        },
      }),
      delete: protocolOperation({
        tags,
        operationId: 'deleteAccessEntry',
        summary: 'Delete an access entry',
        parameters: [entryId],
        responses: {
          '200': jsonResponse('The deleted access entry.', AccessEntry),
          '404': notFound,
        },
      }),
    },
    [`${prefix}/sources/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'listSources',
        summary: 'List the sources imports have loaded (beyond the specification)',
        description:
          'Every source an import has named (`npm run import -- --source NAME`, `POST /import?source=NAME`), ' +
          'with its last load and its records counted by entity type.',
        parameters: managementListParameters(sourceListFields),
        responses: { '200': jsonResponse('A page of sources.', SourcePage), '400': badRequest },
      }),
    },
    [`${prefix}/sources/{name}/`]: {
      description: TRAILING_SLASH_NOTE,
      get: protocolOperation({
        tags,
        operationId: 'getSource',
        summary: 'One source (beyond the specification)',
        parameters: [{ ...idParameter('source', 'name'), description: 'The name of the source.' }],
        responses: { '200': jsonResponse('The source.', Source), '404': notFound },
      }),
    },
  };
}
