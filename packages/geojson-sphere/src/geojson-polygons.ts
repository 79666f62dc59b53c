import { formatValue, typeName } from './bson-text.ts';
import { InvalidGeometry } from './invalid-geometry.ts';
import { parsePositions } from './geojson-coordinates.ts';
import { arcsCross } from './great-circle-arcs.ts';
import type { SphericalPolygon } from './shapes.ts';
import {
  makeRing,
  ringBoundaryTouches,
  ringContains,
  ringEdges,
  type SphericalRing,
} from './spherical-rings.ts';
import { sameVector, type UnitVector } from './unit-vectors.ts';

/** Drops repeated consecutive vertices, which GeoJSON allows and S2 does not. */
export const withoutConsecutiveDuplicates = (vertices: readonly UnitVector[]): UnitVector[] =>
  vertices.filter((vertex, i) => i === 0 || !sameVector(vertex, vertices[i - 1]!));

/** S2Loop::IsValid's checks: no repeated vertex, and no two non-adjacent edges crossing. */
function loopDefect(vertices: readonly UnitVector[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [i, vertex] of vertices.entries()) {
    const key = vertex.join(',');
    const earlier = seen.get(key);
    if (earlier !== undefined) return `Duplicate vertices: ${earlier} and ${i}`;
    seen.set(key, i);
  }
  const edges = [...ringEdges(vertices)];
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 2; j < edges.length; j++) {
      if (i === 0 && j === edges.length - 1) continue; // the closing edge is adjacent to the first
      const [a, b] = edges[i]!;
      const [c, d] = edges[j]!;
      if (arcsCross(a, b, c, d)) return `Edges ${i} and ${j} cross`;
    }
  }
  return undefined;
}

const ringsCross = (first: SphericalRing, second: SphericalRing): boolean =>
  [...ringEdges(first.vertices)].some(([a, b]) =>
    [...ringEdges(second.vertices)].some(([c, d]) => arcsCross(a, b, c, d)),
  );

/** S2Loop::Contains for loops whose boundaries do not cross: every vertex of inner inside or on outer. */
const ringContainsRing = (outer: SphericalRing, inner: SphericalRing): boolean =>
  !ringsCross(outer, inner) &&
  inner.vertices.every((p) => ringBoundaryTouches(outer, p) || ringContains(outer, p));

function parseRing(loop: unknown): SphericalRing {
  const positions = parsePositions(loop);
  if (positions.length === 0) throw new InvalidGeometry(`Loop has no vertices: ${formatValue(loop)}`);
  if (!sameVector(positions[0]!, positions[positions.length - 1]!)) {
    throw new InvalidGeometry(
      `Loop is not closed, first vertex does not equal last vertex: ${formatValue(loop)}`,
    );
  }
  const vertices = withoutConsecutiveDuplicates(positions).slice(0, -1);
  if (vertices.length < 3) {
    throw new InvalidGeometry(
      `Loop must have at least 3 different vertices, ${vertices.length} unique vertices were provided: ${formatValue(loop)}`,
    );
  }
  const defect = loopDefect(vertices);
  if (defect !== undefined) throw new InvalidGeometry(`Loop is not valid: ${formatValue(loop)} ${defect}`);
  return makeRing(vertices);
}

/** The `coordinates` of a GeoJSON Polygon, validated as MongoDB's parseGeoJSONPolygonCoordinates does. */
export function parsePolygonCoordinates(coordinates: unknown): SphericalPolygon {
  if (!Array.isArray(coordinates)) {
    throw new InvalidGeometry(
      `Polygon coordinates must be an array, instead got type ${typeName(coordinates)}`,
    );
  }
  if (coordinates.length === 0) throw new InvalidGeometry('Polygon has no loops.');
  const [shell, ...holes] = coordinates.map(parseRing) as [SphericalRing, ...SphericalRing[]];
  holes.forEach((hole, i) => {
    if (!ringContainsRing(shell, hole)) {
      throw new InvalidGeometry(
        'Secondary loops not contained by first exterior loop - secondary loops must be holes: ' +
          `${formatValue(coordinates[i + 1])} first loop: ${formatValue(coordinates[0])}`,
      );
    }
  });
  holes.forEach((hole, i) =>
    holes.slice(i + 1).forEach((other, offset) => {
      if (ringsCross(hole, other)) {
        throw new InvalidGeometry(
          `Polygon isn't valid: Loop ${i + 1} crosses loop ${i + 2 + offset} ${formatValue(coordinates)}`,
        );
      }
      if (ringContainsRing(hole, other) || ringContainsRing(other, hole)) {
        throw new InvalidGeometry(`Polygon interior loops cannot be nested: ${formatValue(coordinates)}`);
      }
    }),
  );
  return { shell, holes };
}
