import {
  arcsCross,
  distanceToArc,
  farthestDistanceOnArc,
  TOUCH_TOLERANCE_RADIANS,
  touchesArc,
} from './great-circle-arcs.ts';
import {
  polygonCovers,
  polygonInteriorContains,
  polygonRings,
  type Shape,
  type ShapePart,
  type SphericalPolygon,
} from './shapes.ts';
import { ringEdges } from './spherical-rings.ts';
import { angleBetween, length, negate, type SphericalCap, type UnitVector } from './unit-vectors.ts';

type Edge = readonly [UnitVector, UnitVector];

const lineEdges = (vertices: readonly UnitVector[]): Edge[] =>
  vertices.slice(1).map((to, i): Edge => [vertices[i]!, to]);

const polygonEdges = (polygon: SphericalPolygon): Edge[] =>
  polygonRings(polygon).flatMap((ring) => [...ringEdges(ring.vertices)]);

const pathTouches = (edges: readonly Edge[], p: UnitVector): boolean =>
  edges.some(([a, b]) => touchesArc(p, a, b));

const edgesCross = (first: readonly Edge[], second: readonly Edge[]): boolean =>
  first.some(([a, b]) => second.some(([c, d]) => arcsCross(a, b, c, d)));

const midpoint = ([a, b]: Edge): UnitVector => {
  const sum: UnitVector = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const norm = length(sum);
  return [sum[0] / norm, sum[1] / norm, sum[2] / norm];
};

const pathVertices = (edges: readonly Edge[]): UnitVector[] => edges.flatMap(([a, b]) => [a, b]);

function linesIntersect(first: readonly UnitVector[], second: readonly UnitVector[]): boolean {
  const firstEdges = lineEdges(first);
  const secondEdges = lineEdges(second);
  return (
    edgesCross(firstEdges, secondEdges) ||
    first.some((p) => pathTouches(secondEdges, p)) ||
    second.some((p) => pathTouches(firstEdges, p))
  );
}

function lineIntersectsPolygon(line: readonly UnitVector[], polygon: SphericalPolygon): boolean {
  const edges = lineEdges(line);
  const boundary = polygonEdges(polygon);
  return (
    line.some((p) => polygonCovers(polygon, p)) ||
    edgesCross(edges, boundary) ||
    pathVertices(boundary).some((p) => pathTouches(edges, p))
  );
}

const polygonsIntersect = (first: SphericalPolygon, second: SphericalPolygon): boolean =>
  first.shell.vertices.some((p) => polygonCovers(second, p)) ||
  second.shell.vertices.some((p) => polygonCovers(first, p)) ||
  edgesCross(polygonEdges(first), polygonEdges(second));

function partsIntersect(first: ShapePart, second: ShapePart): boolean {
  if (first.kind === 'point') {
    if (second.kind === 'point') return angleBetween(first.point, second.point) <= TOUCH_TOLERANCE_RADIANS;
    if (second.kind === 'line') return pathTouches(lineEdges(second.vertices), first.point);
    return polygonCovers(second.polygon, first.point);
  }
  if (first.kind === 'line') {
    if (second.kind === 'point') return partsIntersect(second, first);
    if (second.kind === 'line') return linesIntersect(first.vertices, second.vertices);
    return lineIntersectsPolygon(first.vertices, second.polygon);
  }
  if (second.kind === 'polygon') return polygonsIntersect(first.polygon, second.polygon);
  return partsIntersect(second, first);
}

/** $geoIntersects: some part of one shape meets some part of the other (boundaries included). */
export const shapesIntersect = (first: Shape, second: Shape): boolean =>
  first.some((a) => second.some((b) => partsIntersect(a, b)));

/**
 * A path lies in a polygon when its vertices are covered and no edge properly crosses the polygon's
 * boundary; the edge midpoints guard against leaving and re-entering through a boundary vertex.
 */
const pathWithinPolygon = (edges: readonly Edge[], polygon: SphericalPolygon): boolean =>
  pathVertices(edges).every((p) => polygonCovers(polygon, p)) &&
  !edgesCross(edges, polygonEdges(polygon)) &&
  edges.every((edge) => polygonCovers(polygon, midpoint(edge)));

function partWithinPolygon(part: ShapePart, container: SphericalPolygon): boolean {
  if (part.kind === 'point') return polygonCovers(container, part.point);
  if (part.kind === 'line') return pathWithinPolygon(lineEdges(part.vertices), container);
  // The shell must stay inside, and no hole of the container may sit inside the polygon.
  return (
    pathWithinPolygon([...ringEdges(part.polygon.shell.vertices)], container) &&
    !container.holes.some((hole) => polygonInteriorContains(part.polygon, hole.vertices[0]!))
  );
}

/** $geoWithin a (Multi)Polygon: like MongoDB, every part must lie within one of the polygons. */
export const shapeWithinPolygons = (shape: Shape, containers: readonly SphericalPolygon[]): boolean =>
  shape.every((part) => containers.some((container) => partWithinPolygon(part, container)));

const edgesWithinCap = (edges: readonly Edge[], cap: SphericalCap): boolean =>
  edges.every(([a, b]) => farthestDistanceOnArc(cap.center, a, b) <= cap.radius + TOUCH_TOLERANCE_RADIANS);

function partWithinCap(part: ShapePart, cap: SphericalCap): boolean {
  if (part.kind === 'point')
    return angleBetween(cap.center, part.point) <= cap.radius + TOUCH_TOLERANCE_RADIANS;
  if (part.kind === 'line') return edgesWithinCap(lineEdges(part.vertices), cap);
  // With its shell inside the cap, the polygon is either inside it or wraps the whole outside of the cap,
  // which then contains the antipode of the centre.
  return (
    edgesWithinCap([...ringEdges(part.polygon.shell.vertices)], cap) &&
    (cap.radius >= Math.PI || !polygonInteriorContains(part.polygon, negate(cap.center)))
  );
}

export const shapeWithinCap = (shape: Shape, cap: SphericalCap): boolean =>
  shape.every((part) => partWithinCap(part, cap));

const smallest = (values: readonly number[]): number =>
  values.reduce((min, value) => Math.min(min, value), Infinity);

function distanceToPart(p: UnitVector, part: ShapePart): number {
  if (part.kind === 'point') return angleBetween(p, part.point);
  if (part.kind === 'polygon' && polygonCovers(part.polygon, p)) return 0;
  const edges = part.kind === 'line' ? lineEdges(part.vertices) : polygonEdges(part.polygon);
  return smallest(edges.map(([a, b]) => distanceToArc(p, a, b)));
}

/** Angular distance (radians) from p to the nearest point of the shape; 0 inside a polygon. */
export const distanceToShape = (p: UnitVector, shape: Shape): number =>
  smallest(shape.map((part) => distanceToPart(p, part)));
