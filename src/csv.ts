import { pipeline, Readable, type TransformCallback } from 'node:stream';
import { Parser, type CsvError, type Options } from 'csv-parse';

/** How a CSV file is written: Frictionless "CSV dialect" settings we honour. */
export interface CsvDialect {
  /** One character; `,` by default. */
  delimiter?: string;
  /** One character; `"` by default. */
  quoteChar?: string;
}

/** A CSV file ends inside a quoted field: everything after the opening quote would be lost. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based line of the file where the unterminated field starts. */
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/** One record of a CSV text, and where it ends. */
export interface CsvRecord {
  cells: string[];
  /** The offset in the input (in bytes, from 0) just past the record and its line break. */
  end: number;
}

/**
 * Streams the records of an RFC 4180 CSV text, read by csv-parse: fields separated by the delimiter, records
 * ended by CRLF, LF or a lone CR (mixed in one file too, as files edited on several platforms have them). A
 * quoted field may hold delimiters, line breaks and doubled quotes (`""` for `"`). Lenient where RFC 4180 is
 * strict but the intent is plain, as common readers are: a quote inside an unquoted field, or text after a
 * closing quote, is kept as text (the quotes with it: `"a"b` reads `"a"b`), and records may have any number
 * of fields. A UTF-8 byte order mark (spreadsheet exports) is dropped (a UTF-16LE one has csv-parse read
 * UTF-16LE); bytes that are not UTF-8 read as U+FFFD. Give bytes, as a file stream does: text chunks are
 * encoded as UTF-8 one by one, so one must not end inside a surrogate pair. Memory holds a few chunks, the
 * records not yet read and the field being read.
 */
export async function* csvRecords(
  chunks: AsyncIterable<string | Buffer>,
  dialect: CsvDialect = {},
): AsyncGenerator<CsvRecord> {
  const parser = new RecordParser(parserOptions(dialect));
  const lines = new LineCounter();
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      // csv-parse is done with the fields before `info.bytes`: a field left open starts at it or after.
      lines.forget(parser.info.bytes);
      lines.keep(bytes);
      yield bytes;
    }
  }
  // A failure of the source reaches the loop below: the pipeline destroys the parser with it.
  pipeline(Readable.from(counted()), parser, () => {});
  for await (const item of parser as AsyncIterable<CsvRecord | CsvError>) {
    if (!(item instanceof Error)) {
      yield item;
      continue;
    }
    if (item.code !== 'CSV_QUOTE_NOT_CLOSED' || typeof item.bytes !== 'number') throw item;
    // The error's `bytes` is the last field boundary csv-parse passed: the open field's record start or the
    // delimiter before it, on the line of its opening quote. (Its `lines` is where the text ended, and
    // counts a CRLF inside a quoted field twice.)
    const line = lines.lineAt(item.bytes);
    throw new CsvSyntaxError(`a quoted field opened on line ${line} is never closed`, line);
  }
}

/** The cells of each record of a CSV text, as `csvRecords` reads them. */
export async function* parseCsv(
  chunks: AsyncIterable<string | Buffer>,
  dialect: CsvDialect = {},
): AsyncGenerator<string[]> {
  for await (const record of csvRecords(chunks, dialect)) yield record.cells;
}

/** Every record delimiter at once (csv-parse otherwise keeps to the first it meets); CRLF before CR. */
const LINE_BREAKS = ['\r\n', '\n', '\r'];

function parserOptions(dialect: CsvDialect): Options {
  const quote = dialect.quoteChar ?? '"';
  return {
    delimiter: dialect.delimiter ?? ',',
    quote,
    // A quote is escaped by doubling it, whichever character quotes.
    escape: quote,
    record_delimiter: LINE_BREAKS,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
  };
}

/**
 * csv-parse's stream, yielding each record as a `CsvRecord`, and a syntax error found at the end of the text
 * (a quoted field never closed) as its last item rather than failing with it: a failed stream drops the
 * records parsed but not yet read.
 */
class RecordParser extends Parser {
  /**
   * csv-parse pushes each record as soon as it has counted its bytes, line break included, in `info.bytes`.
   * (Its `info` option gives the same with each record, but doubles the time parsing takes.)
   */
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    const record = Array.isArray(chunk) ? { cells: chunk as string[], end: this.info.bytes } : chunk;
    return super.push(record, encoding);
  }

  override _flush(callback: TransformCallback): void {
    super._flush((error) => {
      if (error) this.push(error);
      callback();
    });
  }
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * Counts the line breaks of the bytes given to csv-parse (CRLF, LF or a lone CR, one each), keeping the bytes
 * it has not counted yet: those after the last field csv-parse has finished, and the read-ahead.
 */
class LineCounter {
  /** Line breaks before `start`, the offset of the first kept byte. */
  private breaks = 0;
  private start = 0;
  /** Whether the byte before `start` is a CR, which an LF at `start` would end a line with. */
  private afterCarriageReturn = false;
  private readonly kept: Buffer[] = [];

  keep(bytes: Buffer): void {
    if (bytes.length > 0) this.kept.push(bytes);
  }

  /** Counts the line breaks before `offset`, forgetting the bytes there. */
  forget(offset: number): void {
    let first = this.kept[0];
    while (first !== undefined && this.start < offset) {
      const counted = first.subarray(0, offset - this.start);
      this.breaks += lineBreaks(counted, this.afterCarriageReturn);
      this.afterCarriageReturn = counted[counted.length - 1] === CR;
      this.start += counted.length;
      if (counted.length < first.length) this.kept[0] = first.subarray(counted.length);
      else this.kept.shift();
      first = this.kept[0];
    }
  }

  /** The 1-based line of the byte at `offset`. */
  lineAt(offset: number): number {
    this.forget(offset);
    return this.breaks + 1;
  }
}

function lineBreaks(bytes: Buffer, afterCarriageReturn: boolean): number {
  let count = 0;
  for (let at = bytes.indexOf(CR); at >= 0; at = bytes.indexOf(CR, at + 1)) count += 1;
  for (let at = bytes.indexOf(LF); at >= 0; at = bytes.indexOf(LF, at + 1)) {
    const endsCrLf = at === 0 ? afterCarriageReturn : bytes[at - 1] === CR;
    if (!endsCrLf) count += 1;
  }
  return count;
}
