// Writes fixtures/taxonomies.json, taxonomy_terms.json and organizations.json from scripts/sample.
// Usage: npx tsx scripts/build-fixtures.ts
import { writeFileSync } from 'node:fs';
import { renderFixtureFiles } from './fixtures/render.ts';

const fixturesDirectory = new URL('../fixtures/', import.meta.url);

for (const [name, content] of Object.entries(renderFixtureFiles())) {
  writeFileSync(new URL(name, fixturesDirectory), content);
  console.log(`fixtures/${name}: ${content.length} bytes`);
}
