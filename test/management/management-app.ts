/**
 * The management protocol in tests: the real app (startTestApp) with its administrator bootstrapped, and a
 * client that calls it with given credentials and keeps every response body, so that tests can check
 * that no secret was ever sent back.
 */
import { createLogger } from '../../src/log.ts';
import { ensureAdministrator } from '../../src/management/admin-bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

export const ADMIN = { login: 'admin', code: 'admin-code-0123456789' };
export const PREFIX = '/management';

export interface Answer {
  status: number;
  headers: Headers;
  // Problem details and the protocol's records are all JSON objects.
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** How a request presents its credentials. */
export type Credentials =
  | { login: string; code: string; scheme?: 'appkey' | 'basic' }
  | { headers: Record<string, string> }
  | undefined;

export interface ManagementApp extends TestApp {
  /** Every response body received so far, as text. */
  responses: string[];
  call(method: string, path: string, options?: { as?: Credentials; body?: unknown }): Promise<Answer>;
  /** The administrator's call (x-appid/x-appkey). */
  admin(method: string, path: string, body?: unknown): Promise<Answer>;
}

function headersFor(credentials: Credentials): Record<string, string> {
  if (credentials === undefined) return {};
  if ('headers' in credentials) return credentials.headers;
  if (credentials.scheme === 'basic') {
    const token = Buffer.from(`${credentials.login}:${credentials.code}`).toString('base64');
    return { authorization: `Basic ${token}` };
  }
  return { 'x-appid': credentials.login, 'x-appkey': credentials.code };
}

export async function startManagementApp(env: Record<string, string> = {}): Promise<ManagementApp> {
  const app = await startTestApp(env);
  await ensureAdministrator(app.database.db, ADMIN, createLogger('silent'));
  const responses: string[] = [];
  const call: ManagementApp['call'] = async (method, path, { as, body } = {}) => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...headersFor(as), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    responses.push(text);
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  };
  return {
    ...app,
    responses,
    call,
    admin: (method, path, body) => call(method, path, { as: ADMIN, body }),
  };
}
