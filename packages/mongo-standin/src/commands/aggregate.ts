import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { cloneDocument, isCount, isPlainObject } from '../bson-values.ts';
import { countFields } from '../storage/field-subset.ts';
import type { Collection } from '../engine/collection.ts';
import type { Database } from '../engine/database.ts';
import { failedToParse, locationError, toCommandError, typeMismatch } from '../errors.ts';
import { assertNoNearOperator } from '../geo/index.ts';
import { geoNearInput } from './geo-near-input.ts';
import { isKnownPipelineStage } from '../query/mingo-context.ts';
import { facetBranches } from '../query/facet-stage.ts';
import { readsOnly } from '../query/read-only-pipeline.ts';
import { refuseProtoKeys } from '../query/proto-paths.ts';
import { targetCollection, integerOption, type DatabaseCommand } from './command.ts';

function stageName(stage: unknown): string {
  const keys = isPlainObject(stage) ? Object.keys(stage) : [];
  if (keys.length !== 1)
    throw locationError(40323, 'A pipeline stage specification object must contain exactly one field.');
  return keys[0]!;
}

/** Stages a `$facet` branch may not hold (FacetRequirement::kNotAllowed) among those the stand-in knows. */
const NOT_IN_FACET = new Set(['$facet', '$geoNear']);

/** Refuses what MongoDB refuses when it parses a pipeline, before it runs anything; `$facet`'s branches too. */
function validatePipeline(pipeline: unknown[], inFacet = false): void {
  if (!inFacet) refuseProtoKeys(pipeline);
  pipeline.forEach((stage, position) => {
    const name = stageName(stage);
    if (name === '$geoNear' && position > 0 && !inFacet)
      throw locationError(40602, '$geoNear is only valid as the first stage in a pipeline');
    if (name !== '$geoNear' && !isKnownPipelineStage(name))
      throw locationError(40324, `Unrecognized pipeline stage name: '${name}'`);
    const spec = (stage as Document)[name];
    if (name === '$match' && isPlainObject(spec)) assertNoNearOperator(spec, '$match');
    if (name === '$facet') for (const [, branch] of facetBranches(spec)) validatePipeline(branch, true);
    if (inFacet && NOT_IN_FACET.has(name))
      throw locationError(40600, `${name} is not allowed to be used within a $facet stage`);
  });
}

/**
 * The documents entering the pipeline after its first stage when the stand-in runs that stage
 * itself: `$geoNear`, or a leading `$match` that can use an index. Copies when a stage may modify them:
 * a document read from storage keeps the bytes it was read from, for its reply.
 */
function pipelineInput(
  database: Database,
  collection: Collection | undefined,
  pipeline: Document[],
): { docs: Iterable<Document>; rest: Document[] } {
  const first = pipeline[0];
  if (!collection) return { docs: [], rest: first && '$geoNear' in first ? pipeline.slice(1) : pipeline };
  if (first && '$geoNear' in first) return geoNearInput(database, collection, pipeline);
  if (first && '$match' in first && isPlainObject(first.$match)) {
    const matches = database.compileFilter(first.$match);
    const rest = pipeline.slice(1);
    // A count (countDocuments: `$match`, then `$group` summing constants) reads only what the filter does,
    // and nothing when an index holds just the matches, or when there is no condition; and no more
    // matches than its first `$limit` lets through (`countDocuments(filter, {limit: 1})`).
    const counting = countsOnly(rest);
    const candidates = collection.candidates(first.$match, counting ? countFields(first.$match) : null);
    if (!counting) return { docs: selected(candidates.docs, matches, readsOnly(rest)), rest };
    if (candidates.exact && candidates.ids) return counted(candidates.ids.size, rest);
    if (Object.keys(first.$match).length === 0) return counted(collection.size, rest);
    return counted(countMatches(candidates.docs, matches, matchesCounted(rest)), rest);
  }
  return { docs: selected(collection.all(), () => true, readsOnly(pipeline)), rest: pipeline };
}

/**
 * A counting pipeline (see `countsOnly`) over `count` matches: its `$skip`s and `$limit`s, and its first
 * `$group`, worked out on the number rather than run over as many documents; the stages after that group
 * run over its one result. Stages with values MongoDB refuses run as given, over empty documents standing
 * for the matches, and refuse as they would.
 */
function counted(count: number, pipeline: Document[]): { docs: Iterable<Document>; rest: Document[] } {
  let left = count;
  for (const [at, stage] of pipeline.entries()) {
    if ('$skip' in stage && isCount(stage.$skip)) left = Math.max(0, left - stage.$skip);
    else if ('$limit' in stage && isCount(stage.$limit) && stage.$limit > 0)
      left = Math.min(left, stage.$limit);
    else if ('$group' in stage) {
      const group = Object.entries(stage.$group as Document).map(([name, value]) =>
        name === '_id' ? [name, value] : [name, (value as { $sum: number }).$sum * left],
      );
      return { docs: left === 0 ? [] : [Object.fromEntries(group)], rest: pipeline.slice(at + 1) };
    } else return { docs: placeholders(left), rest: pipeline.slice(at) };
  }
  return { docs: placeholders(left), rest: [] };
}

/**
 * How many matches a counting pipeline tells apart: up to its first `$limit`, after the `$skip`s before
 * it; reading more would not change its result.
 */
function matchesCounted(pipeline: Document[]): number {
  let skipped = 0;
  for (const stage of pipeline) {
    if ('$skip' in stage && isCount(stage.$skip)) skipped += stage.$skip;
    else if ('$limit' in stage && isCount(stage.$limit) && stage.$limit > 0) return skipped + stage.$limit;
    else break;
  }
  return Infinity;
}

/** The documents that match, counted up to `most`. */
function countMatches(docs: Iterable<Document>, matches: (doc: Document) => boolean, most: number): number {
  let count = 0;
  for (const doc of docs) if (matches(doc) && ++count >= most) break;
  return count;
}

/** Empty documents standing for `count` matches, for a pipeline that only counts them. */
function* placeholders(count: number): Generator<Document> {
  for (let i = 0; i < count; i++) yield {};
}

function* selected(
  docs: Iterable<Document>,
  matches: (doc: Document) => boolean,
  unmodified: boolean,
): Generator<Document> {
  for (const doc of docs) if (matches(doc)) yield unmodified ? doc : cloneDocument(doc);
}

/**
 * Whether a pipeline only counts its input: `$skip`s and `$limit`s, then `$group`s of a constant `_id`
 * summing constants (at least one: without, the documents themselves come out).
 */
const countsOnly = (pipeline: Document[]) =>
  pipeline.some((stage) => '$group' in stage) &&
  pipeline.every((stage) => {
    if ('$skip' in stage || '$limit' in stage) return true;
    const group = stage.$group;
    if (!isPlainObject(group) || !('_id' in group)) return false;
    return Object.entries(group).every(([name, value]) =>
      name === '_id'
        ? !(typeof value === 'string' && value.startsWith('$')) &&
          !isPlainObject(value) &&
          !Array.isArray(value)
        : isPlainObject(value) && Object.keys(value).length === 1 && typeof value.$sum === 'number',
    );
  });

export const aggregate: DatabaseCommand = {
  names: ['aggregate'],
  scope: 'database',
  run({ body }, database, { cursors }) {
    const pipeline = body.pipeline;
    if (!Array.isArray(pipeline)) throw typeMismatch("Field 'pipeline' must be of type array");
    if (!isPlainObject(body.cursor))
      throw failedToParse("The 'cursor' option is required, except for aggregate with the explain argument");
    validatePipeline(pipeline);
    // `aggregate: 1` runs a collection-less pipeline (`$documents`).
    const name = body.aggregate === 1 ? undefined : targetCollection(body);
    const { docs, rest } = pipelineInput(database, name ? database.collection(name) : undefined, pipeline);
    let results: Iterable<Document>;
    try {
      // Streamed: a stage that needs all its input ($sort, $group) gathers it, the others pass it on.
      results =
        rest.length > 0
          ? (new Aggregator(rest, database.mingoOptions).stream(docs) as Iterable<Document>)
          : docs;
    } catch (error) {
      throw toCommandError(error);
    }
    return cursors.open(`${database.name}.${name ?? '$cmd.aggregate'}`, results, {
      batchSize: integerOption(body.cursor, 'batchSize'),
    });
  },
};
