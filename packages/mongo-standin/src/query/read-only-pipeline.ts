import type { Document } from 'bson';
import { isPlainObject } from '../bson-values.ts';
import { isTopLevelInclusion } from './top-level-inclusion.ts';

/** Stages that only select, order or summarize their input documents, never change them. */
const READ_ONLY_STAGES = new Set(['$match', '$skip', '$limit', '$sort', '$count', '$group', '$sortByCount']);

/**
 * Whether a pipeline leaves its input documents and the values in them as they are, so they need no copy:
 * `countDocuments` (a `$match` and a `$group`) over many large documents would otherwise copy every one of
 * them to count them, and a page and total of a proximity search (a `$project` and a `$facet`) every
 * candidate kept from an earlier read (engine/kept-reads.ts). A `$facet` reads only when each of its
 * branches does (it then gives them the documents themselves, facet-stage.ts); the stages after a top-level
 * inclusion `$project` get documents of its own.
 */
export const readsOnly = (pipeline: readonly Document[]): boolean =>
  pipeline.every((stage) =>
    Object.entries(stage).every(
      ([name, spec]) =>
        READ_ONLY_STAGES.has(name) ||
        (name === '$project' && isTopLevelInclusion(spec)) ||
        (name === '$facet' &&
          isPlainObject(spec) &&
          Object.values(spec).every((branch) => Array.isArray(branch) && readsOnly(branch))),
    ),
  );
