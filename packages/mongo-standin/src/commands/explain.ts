import { isPlainObject } from '../bson-values.ts';
import { badValue, commandNotFound } from '../errors.ts';
import { assertNoNearOperator } from '../geo/index.ts';
import { winningPlan } from '../query/select.ts';
import { integerOption, targetCollection, type DatabaseCommand } from './command.ts';

/**
 * `explain` of a `find` or `count`, at verbosity `queryPlanner`: the plan the stand-in follows, in
 * MongoDB's shape (`queryPlanner.winningPlan`), so that a test can see whether a query is answered from an
 * index. Other verbosities (which would run the query and report its statistics) and other commands are
 * refused rather than answered in part.
 */
export const explain: DatabaseCommand = {
  names: ['explain'],
  scope: 'database',
  run({ body }, database) {
    const explained: unknown = body.explain;
    if (!isPlainObject(explained)) throw badValue('explain must be a command document');
    const verbosity = body.verbosity ?? 'queryPlanner';
    if (verbosity !== 'queryPlanner')
      throw badValue(`the stand-in explains at verbosity 'queryPlanner' only, not '${String(verbosity)}'`);
    const command = Object.keys(explained)[0];
    if (command !== 'find' && command !== 'count')
      throw commandNotFound(`explain of ${String(command)} (the stand-in explains find and count)`);
    // As the command itself would refuse it.
    if (command === 'count' && isPlainObject(explained.query)) assertNoNearOperator(explained.query, 'count');
    const name = targetCollection(explained);
    const plan = winningPlan(database, database.collection(name), {
      filter: command === 'find' ? explained.filter : explained.query,
      sort: command === 'find' ? explained.sort : undefined,
      skip: integerOption(explained, 'skip'),
      limit: Math.abs(integerOption(explained, 'limit') ?? 0),
    });
    return {
      queryPlanner: { namespace: `${database.name}.${name}`, winningPlan: plan, rejectedPlans: [] },
      ok: 1,
    };
  },
};
