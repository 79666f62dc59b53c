import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/http/error-handler.ts';
import { invalidParameter } from '../../src/http/problem.ts';
import { createLogger } from '../../src/log.ts';
import { freePort } from '../support/free-port.ts';

// A client aimed at a port nothing listens on: real driver failures, not imitations of them.
let unreachable: MongoClient;
let server: Server;
let url: string;

beforeAll(async () => {
  unreachable = new MongoClient(`mongodb://127.0.0.1:${await freePort()}/?directConnection=true`, {
    serverSelectionTimeoutMS: 200,
  });
  const app = new Koa();
  app.use(errorHandler(createLogger('silent')));
  app.use(async (ctx) => {
    if (ctx.path === '/bug') throw new TypeError('secret internal detail at /srv/app.js:12');
    if (ctx.path === '/database') ctx.body = await unreachable.db('x').collection('y').findOne({});
    if (ctx.path === '/invalid') throw invalidParameter('page', 'must be a positive integer');
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await unreachable?.close();
  server?.close();
});

describe('errorHandler', () => {
  it('answers an unexpected error with a bare 500 and no internals', async () => {
    const response = await fetch(`${url}/bug`);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred.',
      instance: '/bug',
    });
    expect(body).not.toMatch(/secret|srv|TypeError/);
  });

  it('answers 503 with Retry-After while the database is unreachable', async () => {
    const response = await fetch(`${url}/database`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
  });

  it('names the parameter at fault', async () => {
    const response = await fetch(`${url}/invalid`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: "Invalid value for parameter 'page': must be a positive integer",
      instance: '/invalid',
      errors: [{ parameter: 'page', message: 'must be a positive integer' }],
    });
  });
});
