import {
  cross,
  dot,
  shapesIntersect,
  toUnitVector,
  type Shape,
  type ShapePart,
  type SphericalCap,
  type UnitVector,
} from 'geojson-sphere';

/**
 * The cells of the stand-in's 2dsphere indexes: a quadtree over longitude and latitude, each cell named
 * by its quadrant digits from the whole earth down ('' is the earth, '0'–'3' its quarters, and so on),
 * so that a cell's name starts with each of its ancestors' and a cell and all below it are one range of
 * names. A geometry is indexed under a few cells covering its longitude/latitude bounds; a query reads
 * the cells covering its region's bounds (for a distance, only those that reach into its cap), their
 * descendants and their ancestors. Cells only narrow: the query's own test decides every candidate, so
 * bounds may be generous but never short.
 */

/** Points are indexed at this level: cells of 360°/2^20 by 180°/2^20 (~38 by ~19 metres at the equator). */
export const POINT_LEVEL = 20;
/** Cells per part of an indexed geometry, and per query region. */
const CELLS_PER_GEOMETRY_PART = 4;
const CELLS_PER_QUERY = 16;
/** Cells a distance query's cap may be covered with: finer at its rim than its bounds' 16 allow. */
const CELLS_PER_CAP = 48;
/** Margin added around query bounds, in degrees: far more than MongoDB's touch tolerance (1e-9 rad). */
const MARGIN_DEGREES = 1e-6;
const DEGREES = 180 / Math.PI;

/** A longitude/latitude rectangle in degrees, west ≤ east (a region across the antimeridian is two). */
export interface Bounds {
  readonly west: number;
  readonly east: number;
  readonly south: number;
  readonly north: number;
}

/** The whole earth: nothing to narrow by. */
export const WORLD = 'world';
/** Where a stored geometry lies: its bounds, or anywhere. */
type Extent = readonly Bounds[] | typeof WORLD;
/** Where a query's geometries may lie: an area, or anywhere. */
export type Region = Area | typeof WORLD;
/** Where a query's geometries lie, known: bounds, and for a distance query the cap it reaches. */
export interface Area {
  readonly bounds: readonly Bounds[];
  readonly cap?: SphericalCap;
}

const lngLatOf = ([x, y, z]: UnitVector): [number, number] => [
  Math.atan2(y, x) * DEGREES,
  Math.asin(Math.max(-1, Math.min(1, z))) * DEGREES,
];

const NORTH_POLE: UnitVector = [0, 0, 1];
const SOUTH_POLE: UnitVector = [0, 0, -1];

/**
 * The latitude extremes of the great-circle arc from a to b (radians → degrees), which bulges poleward
 * of its ends: the circle's highest and lowest points, where they lie on the arc.
 */
function arcLatitudes(a: UnitVector, b: UnitVector): [number, number] {
  const [, latA] = lngLatOf(a);
  const [, latB] = lngLatOf(b);
  let south = Math.min(latA, latB);
  let north = Math.max(latA, latB);
  const normal = cross(a, b);
  const size = Math.hypot(...normal);
  if (size < 1e-15) return [south, north];
  const [nx, ny, nz] = normal.map((c) => c / size) as [number, number, number];
  const horizontal = 1 - nz * nz;
  if (horizontal < 1e-15) return [south, north]; // the equator
  const highest: UnitVector = [-nx * nz, -ny * nz, horizontal].map((c) => c / Math.sqrt(horizontal)) as [
    number,
    number,
    number,
  ];
  const onArc = (p: UnitVector) => dot(cross(a, p), normal) >= 0 && dot(cross(p, b), normal) >= 0;
  if (onArc(highest)) north = Math.max(north, lngLatOf(highest)[1]);
  const lowest: UnitVector = [-highest[0], -highest[1], -highest[2]];
  if (onArc(lowest)) south = Math.min(south, lngLatOf(lowest)[1]);
  return [south, north];
}

/** Bounds of a chain of arcs; the world when one crosses the antimeridian or passes over a pole. */
function edgesBounds(edges: Iterable<[UnitVector, UnitVector]>): Extent {
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (const [a, b] of edges) {
    const [lngA] = lngLatOf(a);
    const [lngB] = lngLatOf(b);
    if (Math.abs(lngB - lngA) >= 180) return WORLD;
    const [arcSouth, arcNorth] = arcLatitudes(a, b);
    west = Math.min(west, lngA, lngB);
    east = Math.max(east, lngA, lngB);
    south = Math.min(south, arcSouth);
    north = Math.max(north, arcNorth);
  }
  return west > east ? [] : [{ west, east, south, north }];
}

function* chain(vertices: readonly UnitVector[], closed: boolean): Generator<[UnitVector, UnitVector]> {
  if (vertices.length === 1) yield [vertices[0]!, vertices[0]!];
  for (let i = 0; i + 1 < vertices.length; i++) yield [vertices[i]!, vertices[i + 1]!];
  if (closed && vertices.length > 1) yield [vertices[vertices.length - 1]!, vertices[0]!];
}

/**
 * Bounds of one part of a shape. A polygon's interior lies within its shell's bounds unless it holds a
 * pole (a shell that does not cross the antimeridian leaves both poles' side outside those bounds).
 */
function partBounds(part: ShapePart): Extent {
  if (part.kind === 'point') {
    const [lng, lat] = lngLatOf(part.point);
    return [{ west: lng, east: lng, south: lat, north: lat }];
  }
  if (part.kind === 'line') return edgesBounds(chain(part.vertices, false));
  const whole: Shape = [part];
  const holdsPole = (pole: UnitVector) => shapesIntersect(whole, [{ kind: 'point', point: pole }]);
  if (holdsPole(NORTH_POLE) || holdsPole(SOUTH_POLE)) return WORLD;
  return edgesBounds(chain(part.polygon.shell.vertices, true));
}

/** The cells a stored shape is indexed under: a few per part, '' (the earth) for a part bounded by none. */
export function shapeCells(shape: Shape): string[] {
  const cells = new Set<string>();
  for (const part of shape) {
    const bounds = partBounds(part);
    if (bounds === WORLD) return [''];
    for (const cell of coveringCells(bounds, part.kind === 'point' ? 1 : CELLS_PER_GEOMETRY_PART))
      cells.add(nameOf(cell));
  }
  return [...cells];
}

/** Bounds of a query shape ($geometry of $geoWithin or $geoIntersects), with a margin. */
export function shapeRegion(shape: Shape): Region {
  const all: Bounds[] = [];
  for (const part of shape) {
    const bounds = partBounds(part);
    if (bounds === WORLD) return WORLD;
    all.push(...bounds);
  }
  return { bounds: all.flatMap(withMargin) };
}

/** Bounds of every point within `radius` radians of `center` (a spherical cap), with a margin. */
export function capRegion([lng, lat]: readonly [number, number], radius: number): Region {
  if (!(radius < Math.PI / 2)) return WORLD;
  const reach = radius * DEGREES;
  const south = lat - reach;
  const north = lat + reach;
  const cap = { center: toUnitVector([lng, lat]), radius };
  if (south <= -90 || north >= 90) {
    const polar = { west: -180, east: 180, south: Math.max(-90, south), north: Math.min(90, north) };
    return { bounds: withMargin(polar), cap };
  }
  const spread = Math.asin(Math.min(1, Math.sin(radius) / Math.cos(lat / DEGREES))) * DEGREES;
  return { bounds: withMargin({ west: lng - spread, east: lng + spread, south, north }), cap };
}

/** Bounds widened by the margin, split at the antimeridian (touching it counts: ±180° are one meridian). */
function withMargin({ west, east, south, north }: Bounds): Bounds[] {
  const wide = {
    west: west - MARGIN_DEGREES,
    east: east + MARGIN_DEGREES,
    south: Math.max(-90, south - MARGIN_DEGREES),
    north: Math.min(90, north + MARGIN_DEGREES),
  };
  const parts: Bounds[] = [{ ...wide, west: Math.max(-180, wide.west), east: Math.min(180, wide.east) }];
  if (wide.west < -180) parts.push({ ...wide, west: wide.west + 360, east: 180 });
  if (wide.east > 180) parts.push({ ...wide, west: -180, east: wide.east - 360 });
  return parts;
}

/**
 * The query's cells: few enough to read each, at the finest level that allows it; for a cap, those of
 * its bounds' cells that reach into it, the ones across its rim split while their number allows (a
 * circle's bounding cells hold up to twice the documents within it).
 */
export function queryCells({ bounds, cap }: Area): string[] {
  const covering = coveringCells(bounds, CELLS_PER_QUERY);
  if (!cap || covering.some((cell) => cell.level < MIN_CAP_LEVEL)) return covering.map(nameOf);
  const test: CapTest = { center: cap.center, radius: cap.radius, cosRadius: Math.cos(cap.radius) };
  let cells: PlacedCell[] = [];
  for (const { x, y, level } of covering) placing(x, y, level, test, cells);
  for (;;) {
    // Each cell's place against the cap is worked out once, when the cell is made.
    const finer: PlacedCell[] = [];
    let split = false;
    for (const cell of cells) {
      if (cell.level === POINT_LEVEL || cell.place === 'inside') finer.push(cell);
      else {
        split = true;
        for (let quadrant = 0; quadrant < 4; quadrant++) {
          const x = 2 * cell.x + (quadrant & 1);
          const y = 2 * cell.y + (quadrant >> 1);
          placing(x, y, cell.level + 1, test, finer);
        }
      }
      if (finer.length > CELLS_PER_CAP) return cells.map(nameOf);
    }
    if (!split) return cells.map(nameOf);
    cells = finer;
  }
}

/** Where a cell lies against a cap (`reaches`). */
type Place = 'outside' | 'inside' | 'across';

interface PlacedCell extends Cell {
  readonly place: Place;
}

/** Adds cell (x, y) of `level` to `cells` with its place, unless it lies outside the cap. */
function placing(x: number, y: number, level: number, cap: CapTest, cells: PlacedCell[]): void {
  const place = reaches(x, y, level, cap);
  if (place !== 'outside') cells.push({ x, y, level, place });
}

const cellIndex = (value: number, low: number, span: number, cells: number) =>
  Math.min(cells - 1, Math.max(0, Math.floor(((value - low) / span) * cells)));

interface CellRange {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function cellRange({ west, east, south, north }: Bounds, level: number): CellRange {
  const cells = 2 ** level;
  return {
    x0: cellIndex(west, -180, 360, cells),
    x1: cellIndex(east, -180, 360, cells),
    y0: cellIndex(south, -90, 180, cells),
    y1: cellIndex(north, -90, 180, cells),
  };
}

/** A cell by its place: column x and row y of the 2^level by 2^level grid over the earth. */
interface Cell {
  readonly x: number;
  readonly y: number;
  readonly level: number;
}

/** The cells covering the bounds, at the finest level (down to POINT_LEVEL) where they are at most `most`. */
function coveringCells(bounds: readonly Bounds[], most: number): Cell[] {
  let level = POINT_LEVEL;
  const count = (at: number) =>
    bounds.reduce((sum, box) => {
      const { x0, x1, y0, y1 } = cellRange(box, at);
      return sum + (x1 - x0 + 1) * (y1 - y0 + 1);
    }, 0);
  while (level > 0 && count(level) > most) level--;
  const cells = new Map<string, Cell>();
  for (const box of bounds) {
    const { x0, x1, y0, y1 } = cellRange(box, level);
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) cells.set(cellName(x, y, level), { x, y, level });
  }
  return [...cells.values()];
}

const nameOf = ({ x, y, level }: Cell): string => cellName(x, y, level);

/**
 * Cells of this level or finer span at most 90° of longitude, where a cell's farthest points from its
 * centre are its corners (what `reaches` assumes); a query with coarser cells keeps them all.
 */
const MIN_CAP_LEVEL = 2;
/** Slack on a cell's distance from a cap, in radians: above the arithmetic's error, as MARGIN_DEGREES. */
const MARGIN_RADIANS = MARGIN_DEGREES / DEGREES;

const RADIANS_PER_DEGREE = Math.PI / 180;

/** `angleBetween` of two unit vectors given by their coordinates (no vectors made). */
const angleOf = (ax: number, ay: number, az: number, bx: number, by: number, bz: number): number =>
  Math.atan2(
    Math.hypot(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx),
    ax * bx + ay * by + az * bz,
  );

/** A cap, with the cosine of its radius, which placing each cell asks for. */
interface CapTest extends SphericalCap {
  readonly cosRadius: number;
}

/**
 * Whether a cell lies wholly outside a cap, wholly inside it, or across its rim. Outside is told only when
 * certain (every point of the cell is farther from the cap's centre than its cell centre's distance less
 * the cell's reach to its farthest corner, a cell reaching as far to its west corners as to its east ones);
 * inside may be missed or, by the rounding of a cosine, claimed at the rim, which only leaves a cell
 * unsplit. A query places a hundred cells or more: the corners' and middle's unit vectors are made as
 * `toUnitVector` makes them, each meridian's and parallel's cosine and sine worked out once, without
 * arrays.
 */
function reaches(x: number, y: number, level: number, cap: CapTest): Place {
  const width = 360 / 2 ** level;
  const height = 180 / 2 ** level;
  const west = -180 + x * width;
  const south = -90 + y * height;
  const westRadians = west * RADIANS_PER_DEGREE;
  const eastRadians = (west + width) * RADIANS_PER_DEGREE;
  const middleRadians = (west + width / 2) * RADIANS_PER_DEGREE;
  const southRadians = south * RADIANS_PER_DEGREE;
  const northRadians = (south + height) * RADIANS_PER_DEGREE;
  const parallelRadians = (south + height / 2) * RADIANS_PER_DEGREE;
  const cosWest = Math.cos(westRadians);
  const sinWest = Math.sin(westRadians);
  const cosEast = Math.cos(eastRadians);
  const sinEast = Math.sin(eastRadians);
  const cosSouth = Math.cos(southRadians);
  const sinSouth = Math.sin(southRadians);
  const cosNorth = Math.cos(northRadians);
  const sinNorth = Math.sin(northRadians);
  const cosParallel = Math.cos(parallelRadians);
  const middleX = cosParallel * Math.cos(middleRadians);
  const middleY = cosParallel * Math.sin(middleRadians);
  const middleZ = Math.sin(parallelRadians);
  const reach = Math.max(
    angleOf(middleX, middleY, middleZ, cosSouth * cosWest, cosSouth * sinWest, sinSouth),
    angleOf(middleX, middleY, middleZ, cosNorth * cosWest, cosNorth * sinWest, sinNorth),
  );
  const [cx, cy, cz] = cap.center;
  if (angleOf(cx, cy, cz, middleX, middleY, middleZ) - reach > cap.radius + MARGIN_RADIANS) return 'outside';
  // Whether the corner at these cosines and sines is within the radius.
  const { cosRadius } = cap;
  return cosSouth * (cx * cosWest + cy * sinWest) + cz * sinSouth > cosRadius &&
    cosSouth * (cx * cosEast + cy * sinEast) + cz * sinSouth > cosRadius &&
    cosNorth * (cx * cosWest + cy * sinWest) + cz * sinNorth > cosRadius &&
    cosNorth * (cx * cosEast + cy * sinEast) + cz * sinNorth > cosRadius
    ? 'inside'
    : 'across';
}

/** The quadrant digits of cell (x, y) at `level`, most significant first. */
function cellName(x: number, y: number, level: number): string {
  let name = '';
  for (let bit = level - 1; bit >= 0; bit--) name += String(((x >> bit) & 1) | (((y >> bit) & 1) << 1));
  return name;
}
