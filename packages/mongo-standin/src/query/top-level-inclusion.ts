import type { Document } from 'bson';
import { isPlainObject, setField } from '../bson-values.ts';

/**
 * A `$project` that includes some top-level fields (at least one besides `_id`, which it may leave out),
 * their values those of the input: no exclusion, dotted path or expression. Such a projection leaves the
 * input's own values as they are (an exclusion or a dotted path would have mingo change embedded
 * documents of the input) and is run without mingo (`projectTopLevel`).
 */
export function isTopLevelInclusion(spec: unknown): spec is Document {
  if (!isPlainObject(spec)) return false;
  let shown = 0;
  for (const [field, value] of Object.entries(spec)) {
    if (field === '_id') {
      if (value !== 0 && value !== 1 && typeof value !== 'boolean') return false;
    } else if (field.includes('.') || field.startsWith('$') || (value !== 1 && value !== true)) {
      return false;
    } else shown++;
  }
  return shown > 0;
}

/**
 * Documents of the fields a top-level inclusion shows (see `isTopLevelInclusion`), in each input
 * document's own order, as MongoDB gives them; `_id` unless left out.
 */
export function* projectTopLevel(docs: Iterable<Document>, spec: Document): Generator<Document> {
  const shown = new Set(Object.keys(spec).filter((field) => field !== '_id'));
  if (spec._id === undefined || spec._id === 1 || spec._id === true) shown.add('_id');
  for (const doc of docs) {
    const projected: Document = {};
    for (const field of Object.keys(doc)) if (shown.has(field)) setField(projected, field, doc[field]);
    yield projected;
  }
}
