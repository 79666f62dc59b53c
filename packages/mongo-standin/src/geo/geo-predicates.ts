import {
  formatField,
  formatValue,
  InvalidGeometry,
  isDocumentOrArray,
  isLegacyPointForm,
  isPlainObject,
  isValidLngLat,
  parseBox,
  parseCircle,
  parseFlatCircle,
  parseFlatPolygon,
  parseGeoJson,
  shapesIntersect,
  shapeWithinCap,
  shapeWithinPolygons,
  toSpherePoint,
  type FlatPointTest,
  type Shape,
  type SphericalPolygon,
  type StoredGeometry,
} from 'geojson-sphere';
import { badValue } from '../errors.ts';
import { parseQueryPoint } from './query-point.ts';

export type GeoOperator = '$geoWithin' | '$geoIntersects';

/** A compiled $geoWithin / $geoIntersects argument, tested against each stored geometry. */
export type GeoPredicate = (stored: StoredGeometry) => boolean;

/** What one geo specifier ($geometry, $box, ...) parses to, with what MongoDB lets each operator do. */
interface QueryGeometry {
  /** Defined when the geometry can contain others (MongoDB's supportsContains). */
  readonly within?: GeoPredicate;
  /** Defined when the geometry can be intersected on the sphere (supportsProject(SPHERE)). */
  readonly intersects?: GeoPredicate;
  /** Set when MongoDB would accept $geoIntersects but the stand-in refuses it. */
  readonly intersectsRefusal?: string;
}

const unsupported = (what: string) => badValue(`${what} is not supported by the MongoDB stand-in`);

const flatPointGeometry = (test: FlatPointTest): QueryGeometry => ({
  within: (stored) => stored.flatPoint !== undefined && isPointOnly(stored) && test(stored.flatPoint),
});

/** Flat shapes only ever match points; a stored GeoJSON Point keeps its flat coordinates too. */
const isPointOnly = (stored: StoredGeometry): boolean =>
  stored.shape === undefined || (stored.shape.length === 1 && stored.shape[0]!.kind === 'point');

const onSphere =
  (test: (shape: Shape) => boolean): GeoPredicate =>
  (stored) =>
    stored.shape !== undefined && !stored.strictWinding && test(stored.shape);

function geoJsonGeometry(value: Record<string, unknown>): QueryGeometry {
  const geometry = parseGeoJson(value);
  if (geometry.strictWinding) throw unsupported('A big polygon (strict winding order CRS)');
  const polygons: SphericalPolygon[] = geometry.shape.flatMap((part) =>
    part.kind === 'polygon' ? [part.polygon] : [],
  );
  return {
    within: polygons.length > 0 ? onSphere((shape) => shapeWithinPolygons(shape, polygons)) : undefined,
    intersects: onSphere((shape) => shapesIntersect(geometry.shape, shape)),
  };
}

function centerSphereGeometry(argument: Record<string, unknown> | unknown[]): QueryGeometry {
  const { center, radius } = parseCircle(argument);
  const cap = { center: toSpherePoint(center), radius };
  return {
    within: onSphere((shape) => shapeWithinCap(shape, cap)),
    // MongoDB accepts $geoIntersects with a cap but never matches anything; refusing is clearer.
    intersectsRefusal: '$geoIntersects with $centerSphere',
  };
}

/** A `$geometry` value: a GeoJSON object, or a legacy pair, which only $geoIntersects can use. */
function geometrySpecifier(value: Record<string, unknown> | unknown[]): QueryGeometry {
  if (!isLegacyPointForm(value)) return geoJsonGeometry(value as Record<string, unknown>);
  const { lngLat } = parseQueryPoint(value);
  if (!isValidLngLat(lngLat)) return {};
  const shape: Shape = [{ kind: 'point', point: toSpherePoint(lngLat) }];
  return { intersects: onSphere((stored) => shapesIntersect(shape, stored)) };
}

/** GeometryContainer::parseFromQuery for one `specifier: value` element. */
function parseSpecifier(specifier: string, value: unknown): QueryGeometry {
  if (!isDocumentOrArray(value)) throw badValue(`unknown geo specifier: ${formatField(specifier, value)}`);
  switch (specifier) {
    case '$geometry':
      return geometrySpecifier(value);
    case '$centerSphere':
      return centerSphereGeometry(value);
    case '$box':
      return flatPointGeometry(parseBox(value));
    case '$center':
      return flatPointGeometry(parseFlatCircle(value));
    case '$polygon':
      return flatPointGeometry(parseFlatPolygon(value));
    default:
      throw badValue(`unknown geo specifier: ${formatField(specifier, value)}`);
  }
}

/** GeoExpression::parseFrom: validates the argument and returns the predicate, or throws MongoDB's error. */
export function compileGeoPredicate(operator: GeoOperator, argument: unknown): GeoPredicate {
  const expression = formatValue({ [operator]: argument });
  if (!isPlainObject(argument)) throw badValue('geometry must be an object');
  let geometry: QueryGeometry | undefined;
  for (const [specifier, value] of Object.entries(argument)) {
    if (geometry !== undefined && operator === '$geoWithin') {
      throw badValue(`$geoWithin doesn't accept multiple shapes ${formatField(operator, argument)}`);
    }
    if (specifier === '$uniqueDocs') continue;
    try {
      geometry = parseSpecifier(specifier, value);
    } catch (error) {
      throw error instanceof InvalidGeometry ? badValue(error.message) : error;
    }
  }
  if (geometry === undefined) throw badValue("geo query doesn't have any geometry");
  if (operator === '$geoWithin') {
    if (geometry.within === undefined)
      throw badValue(`$within not supported with provided geometry: ${expression}`);
    return geometry.within;
  }
  if (geometry.intersectsRefusal !== undefined) throw unsupported(geometry.intersectsRefusal);
  if (geometry.intersects === undefined) {
    throw badValue(`$geoIntersect not supported with provided geometry: ${expression}`);
  }
  return geometry.intersects;
}
