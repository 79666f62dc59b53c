import { withoutByteOrderMark } from './byte-order-mark.ts';

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

/**
 * Streams the records of an RFC 4180 CSV text: fields separated by the delimiter, records ended by CRLF
 * (LF or a lone CR too, as files from other platforms have them). A quoted field may hold delimiters, line
 * breaks and doubled quotes (`""` for `"`). Lenient where RFC 4180 is strict but the intent is plain, as
 * common readers are: a quote inside an unquoted field, or text after a closing quote, is kept as text.
 * A UTF-8 byte order mark (spreadsheet exports) is dropped. Memory holds one chunk and the records it ends.
 */
export async function* parseCsv(
  chunks: AsyncIterable<string>,
  dialect: CsvDialect = {},
): AsyncGenerator<string[]> {
  const delimiter = dialect.delimiter ?? ',';
  const quote = dialect.quoteChar ?? '"';
  let record: string[] = [];
  let field = '';
  /** Whether the current field has begun: a quote opens a quoted field only as its first character. */
  let fieldStarted = false;
  /** Inside a quoted field; `quoteSeen`: its last character was a quote, which may end it or escape one. */
  let quoted = false;
  let quoteSeen = false;
  /** The last character was a CR: an LF right after it (maybe in the next chunk) is the same line break. */
  let afterCarriageReturn = false;
  let line = 1;
  let quoteLine = 1;
  let first = true;

  for await (let chunk of chunks) {
    if (first) chunk = withoutByteOrderMark(chunk);
    if (chunk.length > 0) first = false;
    const records: string[][] = [];
    for (const char of chunk) {
      const lineFeedOfCrLf = afterCarriageReturn && char === '\n';
      afterCarriageReturn = char === '\r';
      if (char === '\n' && !lineFeedOfCrLf) line += 1;
      else if (char === '\r') line += 1;

      if (quoted) {
        if (!quoteSeen) {
          if (char === quote) quoteSeen = true;
          else field += char;
          continue;
        }
        quoteSeen = false;
        if (char === quote) {
          field += quote;
          continue;
        }
        // That quote closed the field: read this character as unquoted text.
        quoted = false;
      }
      if (lineFeedOfCrLf) continue;
      if (char === delimiter) {
        record.push(field);
        field = '';
        fieldStarted = false;
      } else if (char === '\r' || char === '\n') {
        record.push(field);
        records.push(record);
        record = [];
        field = '';
        fieldStarted = false;
      } else if (char === quote && !fieldStarted) {
        quoted = true;
        fieldStarted = true;
        quoteLine = line;
      } else {
        field += char;
        fieldStarted = true;
      }
    }
    yield* records;
  }
  if (quoted && !quoteSeen) {
    throw new CsvSyntaxError(`a quoted field opened on line ${quoteLine} is never closed`, quoteLine);
  }
  // A final line break ends the last record; text after it is one more record.
  if (fieldStarted || record.length > 0) {
    record.push(field);
    yield record;
  }
}
