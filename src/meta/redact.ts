import { SECRET_KEYS } from '../log.ts';

export const REDACTED = '[redacted]';

const secretKeys = new Set<string>(SECRET_KEYS);
/**
 * Text that may hold a secret member or parameter: it names one somewhere, as a whole word as `isSecretKey`
 * reads keys (`postcode` or `barcode` name none).
 */
const NAMES_A_SECRET = new RegExp(`\\b(?:${SECRET_KEYS.join('|')})\\b`, 'i');
/**
 * `code`, `CODE`, and also `user[code]` or `user.code` as some query string parsers would read them, or
 * `code ` with a stray space or control character: a name one of whose words (letters, digits, `-`, `_`)
 * is a secret key's.
 */
const isSecretKey = (key: string) =>
  key
    .toLowerCase()
    .split(/[^a-z0-9_-]+/)
    .some((part) => secretKeys.has(part));

/**
 * A copy of `value` with the value of every secret member (`code`, `x-appkey`, `authorization`, …, in any
 * case) replaced by `[redacted]`, at any depth. Strings holding JSON are redacted as JSON too, so a secret
 * cannot slip through as, say, the `request_headers` text of a meta entry sent to `POST /meta/`.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactJsonText(value);
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any real record: cut, rather than overflow the stack and lose the whole entry.
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      isSecretKey(key) ? REDACTED : redactSecrets(member, depth + 1),
    ]),
  );
}

const MAX_DEPTH = 64;
const TOO_DEEP = '[nested too deep]';

function redactJsonText(text: string): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactSecrets(JSON.parse(text)));
    } catch {
      // Not JSON after all (cut short, say): redacted as text below.
    }
  }
  return redactSecretText(text);
}

/**
 * A JSON string token, whole or cut short, and, when it names a member, the member's value. Each match
 * consumes the whole token, so the scan never starts again inside a string: linear in the text.
 */
const JSON_TOKEN = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\]\s"]+)|"(?:[^"\\]|\\.)*"?/g;
/**
 * `name=value`, as a query string writes a parameter (a value ends at a `?` too: a URL given as a value),
 * or as a person does (`code = …`).
 */
const QUERY_PARAMETER = /(^|[?&;\s])([^=&?;\s]+)[ \t]*=[ \t]*([^&;?\s#]*)/g;
/** `Name: value` on a line of its own, as HTTP writes a header: the value runs to the end of the line. */
const HEADER_LINE = /(^|\n)([^:\r\n]+):[ \t]*([^\r\n]*)/g;

/** A percent-encoded character: text that may be a query string inside another (a URL as a value). */
const PERCENT_ENCODED = /%[0-9a-f]{2}/i;

/** Percent-encodings looked through: a URL inside a URL inside a parameter, and one more. */
const MAX_DECODINGS = 3;

/**
 * Text that is not JSON but may hold secrets as JSON members or parameters (JSON cut short, a query
 * string, header lines): their values are replaced as in JSON. Text that holds a secret only once
 * percent-decoded (`next=%2Fusers%3Fcode%3D…`, a URL given as a parameter) is kept decoded, redacted.
 */
function redactSecretText(text: string, decodings = 0): string {
  const redacted = redactPlainText(text);
  if (decodings === MAX_DECODINGS || !PERCENT_ENCODED.test(redacted)) return redacted;
  let decoded: string;
  try {
    decoded = decodeURIComponent(redacted);
  } catch {
    return redacted; // a stray `%`: not percent-encoded text
  }
  const decodedRedacted = redactSecretText(decoded, decodings + 1);
  return decodedRedacted === decoded ? redacted : decodedRedacted;
}

/** A JSON string's escape of a character by its code (`\u0063` for `c`): a name may be spelled so. */
const UNICODE_ESCAPE = '\\u';

/** A JSON string token's text, its escapes undone where they are valid. */
function unescaped(name: string): string {
  if (!name.includes('\\')) return name;
  try {
    return JSON.parse(`"${name}"`) as string;
  } catch {
    return name;
  }
}

function redactPlainText(text: string): string {
  // Most text names no secret at all, in letters or escapes: it is not scanned further.
  if (!NAMES_A_SECRET.test(text) && !text.includes(UNICODE_ESCAPE)) return text;
  return text
    .replace(JSON_TOKEN, (token: string, name?: string, colon?: string) =>
      name !== undefined && colon !== undefined && isSecretKey(unescaped(name))
        ? `"${name}"${colon}"${REDACTED}"`
        : token,
    )
    .replace(QUERY_PARAMETER, (parameter: string, start: string, name: string) =>
      isSecretKey(name) ? `${start}${name}=${REDACTED}` : parameter,
    )
    .replace(HEADER_LINE, (line: string, start: string, name: string) =>
      isSecretKey(name) ? `${start}${name}: ${REDACTED}` : line,
    );
}
