import { describe, expect, it } from 'vitest';
import { grantAllows } from '../../src/auth/grants.ts';

describe('grantAllows', () => {
  it('matches an exact path with or without its trailing slash', () => {
    expect(grantAllows({ path: '/meta/', verb: 'GET' }, 'GET', '/meta')).toBe(true);
    expect(grantAllows({ path: '/meta', verb: 'GET' }, 'GET', '/meta/')).toBe(true);
    expect(grantAllows({ path: '/meta', verb: 'GET' }, 'GET', '/meta/123')).toBe(false);
  });

  it('matches a prefix ending in *, including the bare prefix path', () => {
    const grant = { path: '/meta/*', verb: '*' };
    expect(grantAllows(grant, 'PUT', '/meta/123/')).toBe(true);
    expect(grantAllows(grant, 'GET', '/meta')).toBe(true);
    expect(grantAllows(grant, 'GET', '/metadata')).toBe(false);
    expect(grantAllows({ path: '*', verb: '*' }, 'DELETE', '/management/users/1')).toBe(true);
  });

  it('matches the verb case-insensitively, or any verb with *', () => {
    expect(grantAllows({ path: '/import', verb: 'post' }, 'POST', '/import')).toBe(true);
    expect(grantAllows({ path: '/import', verb: 'GET' }, 'POST', '/import')).toBe(false);
  });

  it('lets a GET grant allow HEAD (a GET without its body), and not the other way round', () => {
    expect(grantAllows({ path: '/meta/*', verb: 'GET' }, 'HEAD', '/meta/')).toBe(true);
    expect(grantAllows({ path: '/meta/*', verb: 'HEAD' }, 'HEAD', '/meta/')).toBe(true);
    expect(grantAllows({ path: '/meta/*', verb: 'HEAD' }, 'GET', '/meta/')).toBe(false);
  });
});
