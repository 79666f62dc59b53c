/*
 * Data flows one way between the product's folders (src/<area>/): no folder imports, directly or through
 * others, a folder that imports it. Files at the top of src/ (config, log, json, …) are shared by all.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The folder of src/ a path is in, or undefined for a file at the top of src/. */
const folderOf = (file: string): string | undefined => {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length > 0 ? first : undefined;
};

/** Each folder's imports of other folders, with a file that makes each one. */
function folderImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const from = folderOf(file);
    if (from === undefined) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const to = folderOf(path.resolve(path.dirname(file), specifier!));
      if (to !== undefined && to !== from && !edges.has(to)) edges.set(to, path.relative(SRC, file));
    }
  }
  return graph;
}

/** A cycle of folders, each importing the next (the last the first), with the files that do. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const done = new Set<string>();
  const walk = (folder: string, trail: string[]): string[] | undefined => {
    const at = trail.indexOf(folder);
    if (at >= 0)
      return trail.slice(at).map((step, i, cycle) => {
        const next = cycle[i + 1] ?? folder;
        return `${step} → ${next} (${graph.get(step)?.get(next)})`;
      });
    if (done.has(folder)) return undefined;
    for (const next of graph.get(folder)?.keys() ?? []) {
      const cycle = walk(next, [...trail, folder]);
      if (cycle) return cycle;
    }
    done.add(folder);
    return undefined;
  };
  for (const folder of graph.keys()) {
    const cycle = walk(folder, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('the folders of src/', () => {
  it('import each other in one direction only', () => {
    const graph = folderImports();
    expect(graph.get('ingest')?.has('db')).toBe(true); // the scan sees imports at all
    expect(findCycle(graph)).toBeUndefined();
  });

  it('would show a cycle', () => {
    const graph = folderImports();
    graph.get('db')!.set('ingest', 'db/example.ts');
    expect(findCycle(graph)?.join(', ')).toMatch(/db → ingest \(db\/example\.ts\)/);
  });
});
