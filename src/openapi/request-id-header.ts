import { headerRef } from './responses.ts';

type Response = { $ref?: string; headers?: Record<string, unknown> } & Record<string, unknown>;

/** A response as described, with the X-Request-Id header every response carries (src/http/request-id.ts). */
const withRequestId = (response: Response): Response =>
  response.$ref !== undefined
    ? response // the shared response it refers to says it
    : { ...response, headers: { ...response.headers, 'X-Request-Id': headerRef('X-Request-Id') } };

/** The responses described, each saying that it carries X-Request-Id. */
export const responsesWithRequestId = (responses: Record<string, Response>): Record<string, Response> =>
  Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, withRequestId(response)]),
  );

const isOperation = (member: unknown): member is { responses: Record<string, Response> } =>
  typeof member === 'object' && member !== null && 'responses' in member;

/** The paths described, every response of every operation saying that it carries X-Request-Id. */
export function pathsWithRequestId(paths: Record<string, object>) {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, member]) => [
          key,
          isOperation(member) ? { ...member, responses: responsesWithRequestId(member.responses) } : member,
        ]),
      ),
    ]),
  );
}
