import { BSON, Binary, Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { servedBytes } from '../../src/db/served-bytes.ts';
import {
  rawStoredService,
  servedService,
  serviceJson,
  servicePieces,
  storedService,
} from '../../src/db/spliced-organization.ts';
import { withField } from '../../src/json.ts';

/** A service stored as the import stores it: its own fields, its services at location, no organization. */
function stored(service: Record<string, unknown>) {
  const { own } = serviceJson(service);
  const pairings = service.service_at_locations;
  const json =
    pairings === undefined ? own : withField(own, 'service_at_locations', JSON.stringify(pairings));
  const at = Buffer.byteLength(own) - 1;
  const document = {
    _json: new Binary(servedBytes(json)),
    ...(service.organization === undefined ? {} : { organization: { id: 'o1' }, _organization_at: at }),
  };
  return { service: storedService(document), head: at, raw: rawStoredService(BSON.serialize(document)) };
}

const ORGANIZATION = { id: 'o1', name: 'Caf\u00e9 \u2615 Collective' };
const organizationBytes = servedBytes(JSON.stringify(ORGANIZATION));
const text = (pieces: Buffer[]) => Buffer.concat(pieces).toString('utf8');

describe('a service spliced with its organization', () => {
  it('is its record with the organization after its own fields, whatever it holds', () => {
    const pairings = [{ id: 'p1', description: 'Naïve café' }];
    for (const service of [
      { id: 's1', name: 'Pantry ☕', organization: ORGANIZATION, service_at_locations: pairings },
      { id: 's1', organization: ORGANIZATION },
      { organization: ORGANIZATION, service_at_locations: pairings },
      { organization: ORGANIZATION },
    ]) {
      const { service: decoded, head, raw } = stored(service);
      expect(raw).toEqual(decoded);
      const served = servedService(decoded, organizationBytes).toString('utf8');
      const { service_at_locations: _pairings, ...alone } = service;
      // Valid JSON, the same record, the organization after the service's own fields.
      expect(JSON.parse(served)).toEqual(service);
      expect(served.startsWith(serviceJson(service).alone.slice(0, -1))).toBe(true);
      // The head its services at location nest: up to `_head`, the organization in.
      expect(JSON.parse(`${text(servicePieces(decoded, organizationBytes, head))}}`)).toEqual(alone);
    }
  });

  it('is sent as stored without an organization to splice, or when the organization is not stored', () => {
    const service = { id: 's1', service_at_locations: [] };
    expect(servedService(stored(service).service, organizationBytes).toString()).toBe(
      JSON.stringify(service),
    );
    const orphan = stored({ id: 's1', organization: ORGANIZATION }).service;
    expect(servedService(orphan, undefined).toString()).toBe('{"id":"s1"}');
  });
});

describe('a service read undecoded', () => {
  it('gives its organization and place whatever else its document holds, and types they may be stored as', () => {
    const json = new Binary(servedBytes('{"id":"s1"}'));
    const document = {
      _id: new ObjectId(),
      flags: [true, null, new Date(0)],
      organization: { name: null, id: 'o1', founded: Long.fromNumber(1976), pattern: /a+/i },
      _json: json,
      _organization_at: Long.fromNumber(5),
      price: new Decimal128('1.5'),
    };
    expect(rawStoredService(BSON.serialize(document))).toEqual({
      json: servedBytes('{"id":"s1"}'),
      organization: { id: 'o1', at: 5 },
    });
    // An organization field that is not a document names none.
    expect(
      rawStoredService(BSON.serialize({ organization: 'o1', _json: json, _organization_at: 5 })),
    ).toEqual({
      json: servedBytes('{"id":"s1"}'),
    });
  });

  it('refuses a document without its served form', () => {
    const document = BSON.serialize({ organization: { id: 'o1' }, _organization_at: 1, _json: '{}' });
    expect(() => rawStoredService(document)).toThrow(/has no served form/);
  });

  it('refuses bytes that do not hold together, cut anywhere', () => {
    const whole = BSON.serialize({
      organization: { id: 'o1' },
      _json: new Binary(servedBytes('{}')),
      _organization_at: 1,
    });
    for (let length = 0; length < whole.length; length++)
      expect(() => rawStoredService(whole.subarray(0, length))).toThrow(/a document read for/);
  });
});
