import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { formatField, typeName } from 'geojson-sphere';
import { cloneDocument, isPlainObject } from '../bson-values.ts';
import { locationError, type CommandError } from '../errors.ts';
import { readsOnly } from './read-only-pipeline.ts';

/** Names that may start with `$` in a field path: DBRef's (FieldPath::kAllowedDollarPrefixedFields). */
const DOLLAR_NAMES = new Set(['$id', '$ref', '$db']);

const NAMING_RULES = '$facet pipeline names must follow the naming rules of field path expressions.';

/**
 * FieldPath::validateFieldName's refusal of a branch's name, in $facet's context; undefined when valid. (A
 * name holding NUL, its other refusal, cannot come: BSON cannot encode it.)
 */
function refusedName(name: string): CommandError | undefined {
  const refused = (code: number, reason: string) =>
    locationError(code, `${NAMING_RULES} :: caused by :: ${reason}`);
  if (name === '') return refused(15998, 'FieldPath field names may not be empty strings.');
  if (name.startsWith('$') && !DOLLAR_NAMES.has(name))
    return refused(16410, `FieldPath field names may not start with '$', given '${name}'.`);
  if (name.includes('.'))
    return refused(16412, `FieldPath field names may not contain '.', given '${name}'.`);
  return undefined;
}

/**
 * The branches of a `$facet` specification, each a name and its pipeline of stage objects, refused as
 * MongoDB parses them (DocumentSourceFacet's extractRawPipelines: 40169, the names' rules, 40170, 40171).
 * The stages themselves are checked where pipelines are (commands/aggregate.ts).
 */
export function facetBranches(spec: unknown): [string, Document[]][] {
  if (!isPlainObject(spec) || Object.keys(spec).length === 0) {
    throw locationError(
      40169,
      `the $facet specification must be a non-empty object, but found: ${formatField('$facet', spec)}`,
    );
  }
  const branches = Object.entries(spec);
  for (const [name, pipeline] of branches) {
    const refused = refusedName(name);
    if (refused) throw refused;
    if (!Array.isArray(pipeline))
      throw locationError(40170, `arguments to $facet must be arrays, ${name} is type ${typeName(pipeline)}`);
    pipeline.forEach((stage: unknown, at) => {
      if (!isPlainObject(stage)) {
        throw locationError(
          40171,
          `elements of arrays in $facet spec must be non-empty objects, ${name} argument contained an element of type ${typeName(stage)}: ${formatField(String(at), stage)}`,
        );
      }
    });
  }
  return branches as [string, Document[]][];
}

/**
 * `$facet`: each branch over the same input documents, copied only where a branch could change them or
 * pass them on beside another branch. mingo copies every document for every branch: a proximity search's
 * page and total (`$sort`, `$skip`, `$limit`, `$project`, and `$count`) copied each of its matches twice.
 */
export function $facet(collection: Iterator, expr: unknown, options: Options): Iterator {
  const branches = facetBranches(expr);
  return collection.transform((docs: unknown[]) => {
    const result: Document = {};
    // The documents themselves go to the read-only branches that only count them, and to one other: two
    // branches passing the same objects on would share them in the output, where a later stage setting a
    // field inside one would set it in both. Each branch gets an array of its own.
    let passedOn = false;
    for (const [name, pipeline] of branches) {
      const counts = pipeline.length > 0 && '$count' in pipeline[pipeline.length - 1]!;
      const shared = readsOnly(pipeline) && (counts || !passedOn);
      if (shared && !counts) passedOn = true;
      result[name] = new Aggregator(pipeline, options).run(shared ? [...docs] : docs.map(cloneDocument));
    }
    return Lazy([result]);
  });
}
