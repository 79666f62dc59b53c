import { ObjectId, type Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import type { Options } from 'mingo/types';
import * as updateOperators from 'mingo/operators/update';
import { updateOne, type Modifier } from 'mingo/updater';
import { cloneDocument, isPlainObject } from '../bson-values.ts';
import { valuesEqual } from '../compare.ts';
import { failedToParse, immutableField, invalidOptions, toCommandError } from '../errors.ts';
import { checkModifier, prepareModifier } from './update-preflight.ts';
import { refuseProtoKeys } from './proto-paths.ts';

/** The stages MongoDB accepts in a pipeline-style update. */
const UPDATE_PIPELINE_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
]);

export type UpdateKind = 'replacement' | 'operators' | 'pipeline';

/** Classifies an update (`u`) and rejects what MongoDB rejects. */
export function updateKind(update: unknown): UpdateKind {
  if (Array.isArray(update)) {
    refuseProtoKeys(update);
    for (const stage of update) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || !UPDATE_PIPELINE_STAGES.has(name))
        throw invalidOptions(`${name ?? 'stage'} is not allowed to be used within an update`);
    }
    return 'pipeline';
  }
  if (!isPlainObject(update)) throw failedToParse('Update argument must be either an object or an array');
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys[0]!.startsWith('$')) {
    const operator = keys.find((key) => key.startsWith('$'));
    if (operator)
      throw failedToParse(
        `The dollar ($) prefixed field '${operator}' in '${operator}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    return 'replacement';
  }
  for (const key of keys) {
    if (key !== '$setOnInsert' && !(key in updateOperators))
      throw failedToParse(
        `Unknown modifier: ${key}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(update[key]))
      throw failedToParse(
        `Modifiers operate on fields but we found type ${typeof update[key]} instead. For example: {$mod: {<field>: ...}} not {${key}: ${JSON.stringify(update[key])}}`,
      );
  }
  checkModifier(update);
  return 'operators';
}

export interface UpdateContext {
  /** The update's kind, as `updateKind` classified (and checked) it once for all the documents. */
  kind: UpdateKind;
  /** The query that selected the document (the positional `$` operator refers to it). */
  filter: Document;
  arrayFilters?: Document[];
  options: Partial<Options>;
  /** The document is being created by an upsert: `$setOnInsert` applies. */
  inserting?: boolean;
}

/** Returns the updated version of `doc` (which is left untouched). */
export function applyUpdate(doc: Document, update: unknown, context: UpdateContext): Document {
  const { kind } = context;
  let next: Document;
  if (kind === 'replacement') {
    const replacement = cloneDocument(update as Document);
    if (replacement._id !== undefined && doc._id !== undefined && !valuesEqual(replacement._id, doc._id))
      throw alteredId(replacement._id);
    const { _id: _ignored, ...fields } = replacement;
    next = doc._id === undefined ? replacement : { _id: doc._id, ...fields };
  } else {
    try {
      next =
        kind === 'pipeline'
          ? runPipeline(doc, update as Document[], context)
          : runOperators(doc, update as Document, context);
    } catch (error) {
      // mingo refuses `_id` changes itself, as a generic error.
      if (error instanceof Error && error.message.includes("immutable field '_id'")) throw modifiedId();
      throw toCommandError(error);
    }
    if (doc._id !== undefined && !valuesEqual(next._id, doc._id)) throw modifiedId();
  }
  return next;
}

const modifiedId = () =>
  immutableField("Performing an update on the path '_id' would modify the immutable field '_id'");

function alteredId(id: unknown) {
  return immutableField(
    `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${String(id)}`,
  );
}

/** A path with the positional `$` operator, which refers to the array element the filter matched. */
const POSITIONAL = /\.\$(\.|$)/;

function runOperators(doc: Document, update: Document, context: UpdateContext): Document {
  const modifier = prepareModifier(doc, update, context.inserting === true);
  const docs = [cloneDocument(doc)];
  // mingo only needs the filter for positional paths; compiling it for every document is costly.
  const positional = Object.values(modifier).some((fields) =>
    Object.keys(fields).some((p) => POSITIONAL.test(p)),
  );
  if (Object.keys(modifier).length > 0)
    updateOne(
      docs,
      context.inserting || !positional ? {} : context.filter,
      modifier as Modifier<Document>,
      // The document is a private copy already; values from the update may be shared, as stored
      // documents are never modified.
      { arrayFilters: context.arrayFilters, cloneMode: 'copy' },
      context.options,
    );
  return docs[0]!;
}

function runPipeline(doc: Document, pipeline: Document[], context: UpdateContext): Document {
  const [result] = new Aggregator(pipeline, context.options).run([cloneDocument(doc)]);
  return result ?? {};
}

/**
 * The document an upsert starts from: the filter's equality conditions (MongoDB copies `{a: 1}`,
 * `{a: {$eq: 1}}` and those inside `$and`), with `_id` first.
 */
export function upsertSeed(filter: Document): Document {
  const seed: Document = {};
  collectEqualities(filter, seed);
  return seed;
}

function collectEqualities(filter: Document, seed: Document): void {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(condition)) {
      for (const clause of condition) if (isPlainObject(clause)) collectEqualities(clause, seed);
      continue;
    }
    if (key.startsWith('$')) continue;
    if (isPlainObject(condition) && Object.keys(condition)[0]?.startsWith('$')) {
      if ('$eq' in condition) setPath(seed, key, cloneDocument(condition.$eq));
      continue;
    }
    if (condition instanceof RegExp) continue;
    setPath(seed, key, cloneDocument(condition));
  }
}

function setPath(target: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(node[part])) node[part] = {};
    node = node[part] as Document;
  }
  node[parts.at(-1)!] = value;
}

/** Puts `_id` first (generating an ObjectId when absent), as MongoDB stores inserted documents. */
export function withId(doc: Document): Document {
  if (doc._id !== undefined && Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id: _id === undefined ? new ObjectId() : _id, ...rest };
}
