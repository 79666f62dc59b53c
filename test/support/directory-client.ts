/**
 * Reading the core read protocol over HTTP in tests: the sample directory served by the real app, and
 * small helpers for lists, pages, NDJSON and problem details.
 */
import { expect } from 'vitest';
import type { PageHeader } from '../../src/http/paging.ts';
import type { Json } from '../../src/json.ts';
import { seedSampleData } from '../../src/ingest/seed.ts';
import { createLogger } from '../../src/log.ts';
import { startTestApp, type TestApp } from './app.ts';

export type Item = Json;

export interface ListPage extends PageHeader {
  contents: Item[];
}

/** The core list endpoints (spec 4.4). */
export const LIST_PATHS = [
  '/services',
  '/organizations',
  '/service_at_locations',
  '/taxonomies',
  '/taxonomy_terms',
] as const;
export type ListPath = (typeof LIST_PATHS)[number];

/** The app on a fresh database loaded with the sample directory of fixtures/. */
export async function startSampleApp(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await startTestApp(env);
  await seedSampleData(app.database.db, createLogger('silent'));
  return app;
}

export const idsOf = (items: Item[]) => items.map((item) => item.id as string);

/** Joins a path and parameters into a request target; values are URL-encoded. */
export function withQuery(path: string, parameters: Record<string, string | number | boolean> = {}): string {
  const query = new URLSearchParams(
    Object.entries(parameters).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return query ? `${path}?${query}` : path;
}

export function directoryClient(baseUrl: string) {
  async function getJson<T = ListPage>(target: string, init?: RequestInit): Promise<T> {
    const response = await fetch(`${baseUrl}${target}`, init);
    const text = await response.text();
    expect(response.status, `${init?.method ?? 'GET'} ${target}: ${text.slice(0, 500)}`).toBe(200);
    return JSON.parse(text) as T;
  }

  /** Every item of a list, fetched page by page at the largest page size. */
  async function allItems(path: string, parameters: Record<string, string | number | boolean> = {}) {
    const items: Item[] = [];
    for (let page = 1; ; page++) {
      const { contents, last_page } = await getJson(withQuery(path, { ...parameters, per_page: 1000, page }));
      items.push(...contents);
      if (last_page) return items;
    }
  }

  /** Every line of an NDJSON response, parsed; the response must be 200 NDJSON. */
  async function ndjsonItems(target: string): Promise<Item[]> {
    const response = await fetch(`${baseUrl}${target}`);
    expect(response.status, target).toBe(200);
    expect(response.headers.get('content-type'), target).toMatch(/^application\/x-ndjson/);
    const text = await response.text();
    expect(text === '' || text.endsWith('\n'), `${target}: every line ends in a newline`).toBe(true);
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Item);
  }

  const postJson = <T = ListPage>(path: string, body: unknown) =>
    getJson<T>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  return { getJson, postJson, allItems, ndjsonItems };
}

export type DirectoryClient = ReturnType<typeof directoryClient>;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: { parameter?: string; field?: string; message: string }[];
}

/** Asserts an RFC 9457 problem response with this status, and returns its body. */
export async function expectProblem(response: Response, status: number, what: string): Promise<Problem> {
  const text = await response.text();
  expect(response.status, `${what}: ${text.slice(0, 300)}`).toBe(status);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(text) as Problem;
  expect(problem, what).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return problem;
}

/** The names of the parameters a 400 problem blames. */
export const blamedParameters = (problem: Problem) =>
  (problem.errors ?? []).map((error) => error.parameter ?? error.field);
