import { z } from 'zod';

/** The source an import loads for when it names none. */
export const DEFAULT_SOURCE = 'default';

/** The source the sample data is loaded as, at the first start of an empty database. */
export const SAMPLE_SOURCE = 'sample';

/**
 * A source's name: a publisher or feed, chosen by whoever imports (a host name such as `example.org:8080`
 * fits). Kept short and plain, as it is stored with every record the source loads.
 */
export const SOURCE_NAME_RULE =
  'must be 1 to 100 letters, digits, dots, colons, hyphens or underscores, starting with a letter or digit';

export const sourceName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, { error: SOURCE_NAME_RULE });
