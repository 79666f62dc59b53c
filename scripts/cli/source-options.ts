import { SOURCE_NAME_RULE, sourceName } from '../../src/ingest/source-name.ts';

/** What is wrong with the source options of a loading command (import, harvest), if anything. */
export function sourceOptionsProblem({
  source,
  replace,
  force,
}: {
  source?: string;
  replace: boolean;
  force: boolean;
}): string | undefined {
  if (source !== undefined && !sourceName.safeParse(source).success) return `--source ${SOURCE_NAME_RULE}`;
  if (force && !replace) return '--force goes with --replace';
  return undefined;
}
