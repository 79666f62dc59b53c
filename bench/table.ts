/** A plain-text table for the benches' printed summaries: columns padded to their widest cell. */

export interface Column {
  title: string;
  /** Numbers are right-aligned; text (the default) is left-aligned. */
  align?: 'left' | 'right';
}

export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        return column.align === 'right' ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!);
      })
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((column) => column.title)),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
  ].join('\n');
}
