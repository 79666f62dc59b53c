import type { Document } from 'bson';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { cloneDocument, isPlainObject, setField } from '../bson-values.ts';
import { badValue, toCommandError } from '../errors.ts';
import type { Projector } from '../cursors.ts';
import { refuseProtoKeys } from './proto-paths.ts';
import { sliceArray } from './slice-projection.ts';

const isSlice = (spec: unknown): spec is { $slice: unknown } =>
  isPlainObject(spec) && Object.keys(spec).length === 1 && '$slice' in spec;
const isExclusion = (spec: unknown): boolean => spec === 0 || spec === false;

/**
 * A find-style projection (`{a: 1}`, `{a: 0}`, `$slice`, `$elemMatch`...) applied by mingo. `$slice`
 * does not make a projection inclusive on MongoDB: with only exclusions beside it, every other field
 * stays, which the stand-in does itself (mingo would keep only the sliced fields).
 */
export function compileProjection(projection: unknown, options: Partial<Options>): Projector | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (!isPlainObject(projection)) throw badValue('projection must be an object');
  const fields = Object.entries(projection);
  if (fields.length === 0) return undefined;
  refuseProtoKeys(projection);
  const slices = fields.filter(([, spec]) => isSlice(spec));
  if (slices.length > 0 && fields.every(([, spec]) => isSlice(spec) || isExclusion(spec))) {
    const exclusions = Object.fromEntries(fields.filter(([, spec]) => isExclusion(spec)));
    const exclude = mingoProjector(exclusions, options);
    return (doc) => {
      // A deep copy: mingo's exclusion result shares nested objects with the stored document, which
      // slicing a nested array would otherwise cut.
      const out = cloneDocument(exclude ? exclude(doc) : doc);
      for (const [path, spec] of slices) sliceArray(out, path, (spec as { $slice: unknown }).$slice);
      return out;
    };
  }
  return (
    topLevelProjector(projection) ?? exclusionProjector(projection) ?? mingoProjector(projection, options)
  );
}

/**
 * Excluded paths as a tree: `true` where a field goes, a subtree where some fields below it go. Nodes have
 * no prototype: field names such as `constructor` must not reach what objects inherit.
 */
type Excluded = { [field: string]: true | Excluded };
const excludedNode = (): Excluded => Object.create(null) as Excluded;

/**
 * Projections that only exclude, nested paths among them (`{'organization.phones': 0, phones: 0}`), applied
 * directly: mingo copies each document whole first. As on MongoDB, a path through an array excludes the
 * field from each of its documents, and `_id` stays unless excluded.
 */
function exclusionProjector(projection: Document): Projector | undefined {
  const fields = Object.entries(projection);
  if (fields.some(([path, spec]) => path.includes('$') || !isExclusion(spec))) return undefined;
  const excluded = excludedNode();
  for (const [path] of fields) {
    const parts = path.split('.');
    let node = excluded;
    for (const [index, part] of parts.entries()) {
      const existing = node[part];
      // A path and one below it (`a` and `a.b`): MongoDB refuses it as a path collision, as mingo is left to.
      if (existing === true || (existing !== undefined && index === parts.length - 1)) return undefined;
      if (index === parts.length - 1) node[part] = true;
      else node = node[part] = existing ?? excludedNode();
    }
  }
  const project = (value: unknown, tree: Excluded): unknown => {
    if (Array.isArray(value)) return value.map((item) => project(item, tree));
    if (!isPlainObject(value)) return value;
    const out: Document = {};
    for (const key in value) {
      const below = tree[key];
      if (below === true) continue;
      setField(out, key, below === undefined ? value[key] : project(value[key], below));
    }
    return out;
  };
  return (doc) => project(doc, excluded) as Document;
}

const isInclusion = (spec: unknown): boolean => spec === true || (typeof spec === 'number' && spec !== 0);

/**
 * The common projections, of whole top-level fields only (`{_id: 0, id: 1, name: 1}`, `{_hash: 0}`),
 * applied directly: running mingo per document costs more than the query. Output keeps the document's
 * field order, as MongoDB does, with `_id` included unless excluded.
 */
function topLevelProjector(projection: Document): Projector | undefined {
  const fields = Object.entries(projection);
  if (
    fields.some(
      ([path, spec]) =>
        path.includes('.') || path.startsWith('$') || !(isInclusion(spec) || isExclusion(spec)),
    )
  ) {
    return undefined;
  }
  const others = fields.filter(([path]) => path !== '_id');
  // `{_id: 1}` alone is an inclusion too: of `_id` only.
  const including =
    others.length > 0 ? others.some(([, spec]) => isInclusion(spec)) : isInclusion(projection._id);
  if (including && others.some(([, spec]) => isExclusion(spec))) return undefined; // mingo reports the error
  const listed = new Set(others.map(([path]) => path));
  const keepId = projection._id === undefined ? true : isInclusion(projection._id);
  // `for…in` rather than `Object.entries`: no array of pairs per document (stored documents are plain
  // objects, with no inherited enumerable fields).
  return (doc) => {
    const out: Document = {};
    for (const key in doc) {
      const keep = key === '_id' ? keepId : including ? listed.has(key) : !listed.has(key);
      if (keep) setField(out, key, doc[key]);
    }
    return out;
  };
}

function mingoProjector(projection: Document, options: Partial<Options>): Projector | undefined {
  if (Object.keys(projection).length === 0) return undefined;
  const query = new Query({}, options);
  // mingo removes excluded nested fields from a shallow copy, that is from the stored document itself.
  const excludesNested = Object.entries(projection).some(
    ([path, spec]) => path.includes('.') && isExclusion(spec),
  );
  const project: Projector = (doc) => {
    try {
      return query.find([excludesNested ? cloneDocument(doc) : doc], projection).all()[0] as Document;
    } catch (error) {
      throw toCommandError(error);
    }
  };
  project({}); // reports an invalid projection before any batch is produced
  return project;
}
