import { dirname, extname, isAbsolute, join } from 'node:path';
import * as z from 'zod';
import type { CsvDialect } from '../../csv.ts';
import type { TableField } from './table-field.ts';
import { readUtf8File } from './utf8.ts';

/** One CSV table of a data package, ready to read. */
export interface PackageTable {
  /** The resource name, e.g. `service_at_location`. */
  name?: string;
  /** Path of the CSV file. */
  file: string;
  fields: TableField[];
  /** Cell texts that mean "no value". */
  missingValues: string[];
  dialect: CsvDialect;
  /** Whether the first row names the columns; if not, the columns are the schema's fields in order. */
  header: boolean;
}

/** A resource that cannot be read as a CSV table, and why. */
export interface UnreadableResource {
  name?: string;
  file: string;
  error: string;
}

const Field = z.looseObject({
  name: z.string(),
  type: z.string().optional(),
  trueValues: z.array(z.string()).optional(),
  falseValues: z.array(z.string()).optional(),
});

const Resource = z.looseObject({
  name: z.string().optional(),
  path: z.union([z.string(), z.array(z.string())]).optional(),
  format: z.string().optional(),
  encoding: z.string().optional(),
  dialect: z
    .looseObject({
      delimiter: z.string().length(1).optional(),
      quoteChar: z.string().length(1).optional(),
      header: z.boolean().optional(),
    })
    .optional(),
  // A string is a schema kept in another file or at a URL, which is not read here.
  schema: z
    .union([
      z.string(),
      z.looseObject({
        fields: z.array(Field).optional(),
        missingValues: z.array(z.string()).optional(),
      }),
    ])
    .optional(),
});

const Descriptor = z.looseObject({ resources: z.array(z.unknown()) });

const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * Reads a Frictionless Data Package descriptor (`datapackage.json`) and lists its tables, their paths
 * taken from its folder. Each resource is checked on its own, so one unreadable resource is reported
 * without losing the others. As the Data Package spec requires, a path may not be absolute nor climb out
 * of the package folder; remote (URL), inline and multi-file resources are reported as unsupported.
 */
export async function readDataPackage(
  descriptorFile: string,
): Promise<{ tables: (PackageTable | UnreadableResource)[] } | { error: string }> {
  let descriptor: z.infer<typeof Descriptor>;
  try {
    const parsed = Descriptor.safeParse(JSON.parse(await readUtf8File(descriptorFile)));
    if (!parsed.success) return { error: 'not a data package: it has no list of resources' };
    descriptor = parsed.data;
  } catch (error) {
    return { error: `cannot read the data package: ${(error as Error).message}` };
  }
  const folder = dirname(descriptorFile);
  return { tables: descriptor.resources.map((resource, index) => tableOf(resource, index, folder)) };
}

function tableOf(raw: unknown, index: number, folder: string): PackageTable | UnreadableResource {
  const parsed = Resource.safeParse(raw);
  const label = `resource ${index + 1}`;
  if (!parsed.success) {
    // On one line, as every other rejection of the report is.
    const problems = z.prettifyError(parsed.error).replace(/\n\s*/g, ' ');
    return { file: folder, error: `${label} of the data package is malformed: ${problems}` };
  }
  const resource = parsed.data;
  const name = resource.name;
  const unreadable = (error: string): UnreadableResource => ({
    name,
    file: typeof resource.path === 'string' ? join(folder, resource.path) : folder,
    error: `table ${name ?? label}: ${error}`,
  });
  if (typeof resource.path !== 'string') {
    return unreadable(
      resource.path === undefined ? 'inline data is not supported' : 'multi-file tables are not supported',
    );
  }
  const path = resource.path;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return unreadable(`remote data (${path}) is not supported`);
  if (isAbsolute(path) || path.split(/[\\/]/).includes('..')) {
    return unreadable(`its path ${path} must stay inside the package folder`);
  }
  const format = (resource.format ?? extname(path).slice(1)).toLowerCase();
  if (format !== 'csv') return unreadable(`only CSV tables are read, not ${format || 'this format'}`);
  if (resource.encoding !== undefined && !UTF8.has(resource.encoding.toLowerCase())) {
    return unreadable(`only UTF-8 is read, not ${resource.encoding}`);
  }
  if (typeof resource.schema === 'string')
    return unreadable('a schema kept in another file is not supported');
  const fields = resource.schema?.fields ?? [];
  const header = resource.dialect?.header ?? true;
  if (!header && fields.length === 0)
    return unreadable('without a header row, its schema must name the columns');
  return {
    name,
    file: join(folder, path),
    fields,
    missingValues: resource.schema?.missingValues ?? [''],
    dialect: { delimiter: resource.dialect?.delimiter, quoteChar: resource.dialect?.quoteChar },
    header,
  };
}
