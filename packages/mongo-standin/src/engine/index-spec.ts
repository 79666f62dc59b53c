import type { Document } from 'bson';
import { badValue, cannotCreateIndex, invalidIndexSpecificationOption } from '../errors.ts';
import { refuseProtoPath } from '../query/proto-paths.ts';

/** An index definition as listIndexes reports it (and as it is persisted). */
export interface IndexSpec extends Document {
  v: 2;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
}

const SUPPORTED_TYPES = new Set(['2dsphere', 'text']);
const KNOWN_OPTIONS = new Set([
  'key',
  'name',
  'unique',
  'sparse',
  'partialFilterExpression',
  'v',
  'background',
  'expireAfterSeconds',
  'hidden',
  'collation',
  'default_language',
  'language_override',
  'weights',
  'textIndexVersion',
  '2dsphereIndexVersion',
  'ns',
]);

/** MongoDB's generated index name: `field_1_other_-1`. */
export function defaultIndexName(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${String(direction)}`)
    .join('_');
}

export function parseIndexSpec(raw: Document): IndexSpec {
  const key = raw.key as Document | undefined;
  if (key === null || typeof key !== 'object' || Array.isArray(key) || Object.keys(key).length === 0)
    throw cannotCreateIndex('Index keys cannot be empty.');
  for (const [field, direction] of Object.entries(key)) {
    const numeric = typeof direction === 'number' || typeof direction?.valueOf?.() === 'number';
    if (numeric ? Number(direction) === 0 : !SUPPORTED_TYPES.has(String(direction)))
      throw cannotCreateIndex(
        `Error in specification { key: ${JSON.stringify(key)} } :: caused by :: Unknown index plugin '${String(direction)}' for field ${field}`,
      );
  }
  for (const option of Object.keys(raw))
    if (!KNOWN_OPTIONS.has(option))
      throw invalidIndexSpecificationOption(`The field '${option}' is not valid for an index specification.`);
  if (raw.name !== undefined && typeof raw.name !== 'string')
    throw badValue('The index name must be a string');
  const spec: IndexSpec = { ...raw, v: 2, key: normalizeKey(key), name: raw.name ?? defaultIndexName(key) };
  if (spec.name === '') throw cannotCreateIndex('The index name cannot be empty');
  return spec;
}

function normalizeKey(key: Document): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [field, direction] of Object.entries(key)) {
    refuseProtoPath(field);
    out[field] = typeof direction === 'string' ? direction : Number(direction);
  }
  return out;
}

/** Whether two specs describe the same index (MongoDB compares key pattern and the behaviour options). */
export function sameIndexOptions(a: IndexSpec, b: IndexSpec): boolean {
  return (
    JSON.stringify(a.key) === JSON.stringify(b.key) &&
    !!a.unique === !!b.unique &&
    !!a.sparse === !!b.sparse &&
    JSON.stringify(a.partialFilterExpression ?? null) === JSON.stringify(b.partialFilterExpression ?? null)
  );
}

export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };
