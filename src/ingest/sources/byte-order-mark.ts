/** The UTF-8 byte order mark, as decoded text: some editors and spreadsheet exports start files with it. */
export const BYTE_ORDER_MARK = '\uFEFF';

/** The text without a leading byte order mark, which is not part of the data (JSON.parse refuses it). */
export const withoutByteOrderMark = (text: string): string =>
  text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
