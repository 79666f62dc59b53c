import { Context } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { CollectionResolver, Options } from 'mingo/types';
import { geoQueryOperators } from '../geo/index.ts';
import { comparisonOperators } from './comparison-operators.ts';
import { $count } from './count-stage.ts';
import { $facet } from './facet-stage.ts';
import { $lookup } from './lookup-stage.ts';
import { roundingOperators } from './round-operators.ts';
import { $sort } from './sort.ts';
import { $project } from './top-level-inclusion.ts';
import { $type } from './type-operator.ts';
import { $unwind } from './unwind-stage.ts';

/**
 * Pipeline stages the stand-in does not hand to mingo: `$out`/`$merge` would write outside the storage
 * engine and `$geoNear` is run by the aggregate command itself.
 */
export const UNSUPPORTED_STAGES = new Set(['$out', '$merge', '$geoNear']);

type Operators = NonNullable<Parameters<typeof Context.init>[0]>;

const pipeline: Record<string, unknown> = {
  ...pipelineOperators,
  $sort,
  $count,
  $facet,
  $lookup,
  $unwind,
  $project,
};
for (const name of UNSUPPORTED_STAGES) delete pipeline[name];

/**
 * All of mingo's operators, with the stand-in's own where mingo departs from MongoDB (BSON-aware
 * comparison, $type, sort, $count, $lookup, $unwind's index, $round/$trunc, a top-level inclusion's field
 * order, `$facet`'s copies) and the geo operators swapped in.
 */
const context = Context.init({
  accumulator: accumulatorOperators,
  expression: { ...expressionOperators, ...roundingOperators } as Operators['expression'],
  pipeline: pipeline as Operators['pipeline'],
  projection: projectionOperators,
  query: {
    ...queryOperators,
    ...comparisonOperators,
    $type,
    ...geoQueryOperators,
  } as unknown as Operators['query'],
  window: windowOperators,
});

/** mingo options for one database: `$lookup`/`$unionWith`/`$graphLookup` read its collections. */
export function mingoOptions(collectionResolver?: CollectionResolver): Partial<Options> {
  return { context, idKey: '_id', scriptEnabled: false, useStrictMode: true, collectionResolver };
}

export function isKnownQueryOperator(name: string): boolean {
  return name in queryOperators || name in comparisonOperators || name in geoQueryOperators;
}

export function isKnownPipelineStage(name: string): boolean {
  return name in pipeline;
}
