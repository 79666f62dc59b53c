import { createReadStream } from 'node:fs';
import { basename, join } from 'node:path';
import type { EntityType } from '../../hsds/entities.ts';
import { modelColumns } from '../entity-schemas.ts';
import type { InputRecord } from '../input-record.ts';
import { CsvSyntaxError, csvRecords } from '../../csv.ts';
import { readDataPackage, type PackageTable } from './data-package.ts';
import { entityOfTable, isTableDescriptions } from './table-entity.ts';
import { convertCell, type TableField } from './table-field.ts';
import { invalidUtf8At, refusingWideEncodings, Utf8StreamCheck, WideEncodingError } from './utf8.ts';

export const DATA_PACKAGE_FILE = 'datapackage.json';

/** Taxonomies and their terms load first, so the records that apply terms load after them. */
const loadOrder = (entity: EntityType | undefined) =>
  entity === 'taxonomy' ? 0 : entity === 'taxonomy_term' ? 1 : 2;

/**
 * The HSDS tabular form: a Data Package folder (or its `datapackage.json`) of CSV tables, one per entity.
 * Yields one tabular-form row (`entity` set) per CSV data row, typed by the package's table schemas and
 * streamed table by table. What cannot be read is yielded as an error for the report: a whole unreadable
 * table once, a bad row on its own. A table of no entity we store is no bad record: HSDS's
 * `meta_table_description` is told of with a remark (it holds no directory records: a replace still
 * deletes what the package left out); any other with a notice (it may hold records under a name we do not
 * know: a replace then deletes nothing).
 */
export async function* readTabularPackage(path: string): AsyncGenerator<InputRecord> {
  const descriptorFile = basename(path) === DATA_PACKAGE_FILE ? path : join(path, DATA_PACKAGE_FILE);
  const dataPackage = await readDataPackage(descriptorFile);
  if ('error' in dataPackage) {
    yield { source: { file: descriptorFile }, error: dataPackage.error };
    return;
  }
  const tables = dataPackage.tables
    .map((table) => ({ table, entity: entityOfTable(table.name, table.file) }))
    .sort((a, b) => loadOrder(a.entity) - loadOrder(b.entity));
  for (const { table, entity } of tables) {
    if ('error' in table) yield { source: { file: table.file }, error: table.error };
    else if (entity === undefined && isTableDescriptions(table.name, table.file))
      yield { source: { file: table.file }, remark: notRead(table, " (it describes the package's tables)") };
    else if (entity === undefined) yield { source: { file: table.file }, notice: notRead(table) };
    else yield* readTable(table, entity);
  }
}

const notRead = (table: PackageTable, why = '') =>
  `table ${table.name ?? basename(table.file)} holds no HSDS entity this server stores${why}; its rows were not read`;

/**
 * The rows of one table. A row with bytes that are not UTF-8 is rejected alone (its cells hold U+FFFD in
 * their place); a header row with such bytes, or a file in UTF-16 or UTF-32, leaves the table unread.
 */
async function* readTable(table: PackageTable, entity: EntityType): AsyncGenerator<InputRecord> {
  const file = table.file;
  // Columns the package leaves untyped are read as the HSDS model types them (a number, not text).
  const fields = new Map(modelColumns[entity]);
  for (const field of table.fields)
    if (field.type !== undefined || !fields.has(field.name)) fields.set(field.name, field);
  let columns = table.header ? undefined : table.fields.map((field) => field.name);
  let row = 0;
  const utf8 = new Utf8StreamCheck();
  try {
    const records = csvRecords(utf8.check(refusingWideEncodings(createReadStream(file))), table.dialect);
    for await (const { cells: cellsOfRow, end } of records) {
      const invalid = utf8.takeBefore(end);
      if (columns === undefined) {
        if (invalid !== undefined) {
          const error = `the header row has ${invalidUtf8At(invalid)}; the table was not read`;
          yield { source: { file, row: 0 }, entity, error };
          return;
        }
        columns = cellsOfRow.map((name) => name.trim());
        // Two cells of a row for one field: which one the publisher meant cannot be told.
        const twice = columns.find((name, index) => name !== '' && columns!.indexOf(name) !== index);
        if (twice !== undefined) {
          const error = `the header row names the column ${JSON.stringify(twice)} twice; the table was not read`;
          yield { source: { file, row: 0 }, entity, error };
          return;
        }
        continue;
      }
      row += 1;
      const source = { file, row };
      if (invalid !== undefined) {
        yield { source, entity, error: invalidUtf8At(invalid) };
        continue;
      }
      // A blank line, or a row of empty cells (spreadsheets export trailing ones as `,,,`).
      if (cellsOfRow.every((cell) => cell.trim() === '')) continue;
      const converted = rowValue(cellsOfRow, columns, fields, table.missingValues);
      yield 'error' in converted
        ? { source, entity, error: converted.error }
        : { source, entity, columns, value: converted.value };
    }
  } catch (error) {
    if (error instanceof WideEncodingError) {
      yield { source: { file }, entity, error: error.message };
      return;
    }
    // Broken CSV is found at a row (the header being row 0); a file that cannot be read has none.
    const broken = error instanceof CsvSyntaxError;
    yield {
      source: broken ? { file, row: columns === undefined ? 0 : row + 1 } : { file },
      entity,
      error: `the table ${broken ? 'is not valid CSV' : 'cannot be read'} (${(error as Error).message}); the rest of it was not read`,
    };
  }
}

/** One data row as an object: missing cells left out, the others typed by their column's field. */
function rowValue(
  cells: string[],
  columns: string[],
  fields: Map<string, TableField>,
  missingValues: string[],
): { value: Record<string, unknown> } | { error: string } {
  const problems: string[] = [];
  if (cells.slice(columns.length).some((cell) => cell !== '')) {
    problems.push(`the row has ${cells.length} cells but the table has ${columns.length} columns`);
  }
  const value: Record<string, unknown> = {};
  columns.forEach((column, index) => {
    const text = cells[index];
    // A column without a name cannot become a field.
    if (column === '' || text === undefined || missingValues.includes(text)) return;
    const cell = convertCell(text, fields.get(column));
    if ('error' in cell) problems.push(`column ${column}: ${JSON.stringify(text)} is ${cell.error}`);
    // Defined, not assigned: a column named `__proto__` would set the row's prototype, or vanish, where
    // it must be refused as the reserved field name it is (validate.ts).
    else
      Object.defineProperty(value, column, {
        value: cell.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  });
  return problems.length > 0 ? { error: problems.join('; ') } : { value };
}
