import { describe, expect, it } from 'vitest';
import { geometryDefect } from '../src/index.ts';
import { CENTRAL_PARK_WITHOUT_RESERVOIR, PENN_STATION, point } from './places.ts';

const ring = (...positions: [number, number][]) => positions;
const polygon = (...rings: [number, number][][]) => ({ type: 'Polygon', coordinates: rings });
const SQUARE = ring([0, 0], [3, 0], [3, 3], [0, 3], [0, 0]);
const STRICT_WINDING = {
  type: 'name',
  properties: { name: 'urn:x-mongodb:crs:strictwinding:EPSG:4326' },
};

describe('geometryDefect', () => {
  it.each([
    ['a GeoJSON Point', point(PENN_STATION)],
    ['a position with an altitude', { type: 'Point', coordinates: [...PENN_STATION, 12] }],
    ['a legacy pair', PENN_STATION],
    ['a legacy pair as a document', { lng: PENN_STATION[0], lat: PENN_STATION[1] }],
    ['a polygon with a hole', CENTRAL_PARK_WITHOUT_RESERVOIR],
    ['a polygon wound clockwise', polygon([...SQUARE].reverse())],
    ['a ring repeating a position consecutively', polygon(ring([0, 0], [3, 0], [3, 0], [3, 3], [0, 0]))],
    [
      'a polygon in a named spherical CRS',
      { ...polygon(SQUARE), crs: { type: 'name', properties: { name: 'EPSG:4326' } } },
    ],
    ['a LineString', { type: 'LineString', coordinates: [PENN_STATION, [-73.98, 40.76]] }],
    [
      'a MultiPolygon',
      { type: 'MultiPolygon', coordinates: [[SQUARE], [ring([5, 5], [6, 5], [6, 6], [5, 5])]] },
    ],
    ['a GeometryCollection', { type: 'GeometryCollection', geometries: [point([0, 0]), polygon(SQUARE)] }],
  ])('accepts %s', (_name, value) => {
    expect(geometryDefect(value)).toBeUndefined();
  });

  it.each([
    ['a latitude out of range', point([0, 91]), 'Longitude/latitude is out of bounds, lng: 0 lat: 91'],
    [
      'a longitude out of range',
      point([-180.5, 0]),
      'Longitude/latitude is out of bounds, lng: -180.5 lat: 0',
    ],
    ['a legacy pair off the sphere', [181, 0], "can't project geometry into spherical CRS: [ 181, 0 ]"],
    ['a string', 'downtown', 'geo element must be an array or object: "downtown"'],
    [
      'a Point without coordinates',
      { type: 'Point' },
      'Point must be an array or object, instead got type missing',
    ],
    [
      'non-numeric coordinates',
      { type: 'Point', coordinates: ['a', 'b'] },
      'Point must only contain numeric elements, instead got type string',
    ],
    [
      'an unknown type',
      { type: 'Circle', coordinates: PENN_STATION },
      'unknown GeoJSON type: { type: "Circle", coordinates: [ -73.9935, 40.7506 ] }',
    ],
    [
      'a ring that is not closed',
      polygon(ring([0, 0], [1, 0], [1, 1], [0, 1])),
      'Loop is not closed, first vertex does not equal last vertex: [ [ 0, 0 ], [ 1, 0 ], [ 1, 1 ], [ 0, 1 ] ]',
    ],
    [
      'a ring of fewer than 4 positions',
      polygon(ring([0, 0], [1, 1], [0, 0])),
      'Loop must have at least 3 different vertices, 2 unique vertices were provided: [ [ 0, 0 ], [ 1, 1 ], [ 0, 0 ] ]',
    ],
    [
      'a self-crossing (bow-tie) ring',
      polygon(ring([0, 0], [2, 2], [2, 0], [0, 2], [0, 0])),
      'Loop is not valid: [ [ 0, 0 ], [ 2, 2 ], [ 2, 0 ], [ 0, 2 ], [ 0, 0 ] ] Edges 0 and 2 cross',
    ],
    [
      'a ring passing twice through a vertex',
      polygon(ring([0, 0], [2, 0], [1, 1], [2, 2], [0, 2], [1, 1], [0, 0])),
      'Duplicate vertices: 2 and 5',
    ],
    ['a polygon without rings', polygon(), 'Polygon has no loops.'],
    [
      'a hole outside the shell',
      polygon(SQUARE, ring([5, 5], [6, 5], [6, 6], [5, 5])),
      'Secondary loops not contained by first exterior loop - secondary loops must be holes: ' +
        '[ [ 5, 5 ], [ 6, 5 ], [ 6, 6 ], [ 5, 5 ] ] first loop: [ [ 0, 0 ], [ 3, 0 ], [ 3, 3 ], [ 0, 3 ], [ 0, 0 ] ]',
    ],
    [
      'crossing holes',
      polygon(
        ring([0, 0], [10, 0], [10, 10], [0, 10], [0, 0]),
        ring([1, 1], [5, 1], [5, 5], [1, 5], [1, 1]),
        ring([3, 3], [7, 3], [7, 7], [3, 7], [3, 3]),
      ),
      "Polygon isn't valid: Loop 1 crosses loop 2",
    ],
    [
      'nested holes',
      polygon(
        ring([0, 0], [10, 0], [10, 10], [0, 10], [0, 0]),
        ring([1, 1], [8, 1], [8, 8], [1, 8], [1, 1]),
        ring([2, 2], [3, 2], [3, 3], [2, 3], [2, 2]),
      ),
      'Polygon interior loops cannot be nested',
    ],
    [
      'a big polygon (strict winding order)',
      { ...polygon(SQUARE), crs: STRICT_WINDING },
      "can't index geometry with strict winding order",
    ],
    [
      'strict winding order on a point',
      { ...point([0, 0]), crs: STRICT_WINDING },
      'Strict winding order CRS is only supported by polygon',
    ],
    [
      'an unknown CRS',
      { ...polygon(SQUARE), crs: { type: 'name', properties: { name: 'EPSG:3857' } } },
      'Unknown CRS name: EPSG:3857',
    ],
    [
      'an invalid member of a MultiPolygon',
      { type: 'MultiPolygon', coordinates: [[SQUARE], [ring([5, 5], [6, 5], [6, 6])]] },
      'Loop is not closed, first vertex does not equal last vertex: [ [ 5, 5 ], [ 6, 5 ], [ 6, 6 ] ]',
    ],
    [
      'an empty MultiPolygon',
      { type: 'MultiPolygon', coordinates: [] },
      'MultiPolygon coordinates must have at least 1 element',
    ],
    [
      'a nested GeometryCollection',
      { type: 'GeometryCollection', geometries: [{ type: 'GeometryCollection', geometries: [] }] },
      'GeometryCollections cannot be nested: { type: "GeometryCollection", geometries: [] }',
    ],
    [
      'a LineString of one distinct vertex',
      { type: 'LineString', coordinates: [PENN_STATION, PENN_STATION] },
      'GeoJSON LineString must have at least 2 vertices, instead got 1 vertices',
    ],
  ])('refuses %s', (_name, value, reason) => {
    expect(geometryDefect(value)).toContain(reason);
  });

  it('names the field of a value that is not an array or object, as MongoDB does', () => {
    expect(geometryDefect('downtown', 'loc')).toBe('geo element must be an array or object: loc: "downtown"');
    expect(geometryDefect(null, 'at')).toBe('geo element must be an array or object: at: null');
  });
});
