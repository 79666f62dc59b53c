import type { Document } from 'mongodb';

/**
 * The stages of an explain's winning plan, each with the index it reads (if any): from MongoDB's classic
 * plans (`inputStage`, `inputStages`), its slot-based ones (`queryPlan`) and the stand-in's alike.
 */
export function planStages(explained: Document): { stage: string; indexName?: string }[] {
  const stages: { stage: string; indexName?: string }[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const plan = node as Document;
    if (typeof plan.stage === 'string')
      stages.push({
        stage: plan.stage,
        ...(typeof plan.indexName === 'string' ? { indexName: plan.indexName } : {}),
      });
    for (const inner of [
      plan.queryPlan,
      plan.inputStage,
      ...((plan.inputStages as unknown[] | undefined) ?? []),
    ])
      walk(inner);
  };
  walk((explained.queryPlanner as Document | undefined)?.winningPlan);
  return stages;
}

/** The indexes a plan reads, and whether it scans the whole collection. */
export function planSummary(explained: Document): { indexes: string[]; collectionScan: boolean } {
  const stages = planStages(explained);
  return {
    indexes: stages.flatMap((stage) => (stage.indexName ? [stage.indexName] : [])),
    collectionScan: stages.some((stage) => stage.stage === 'COLLSCAN'),
  };
}
