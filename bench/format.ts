/** Number formatting and argument parsing shared by the benches' printed reports. */

export const MiB = 1024 * 1024;

export const integer = (value: number) => Math.round(value).toLocaleString('en-US');
export const mib = (bytes: number) => `${integer(bytes / MiB)} MiB`;
/** MiB to a tenth, for sizes of a few MiB. */
export const mibTenths = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
export const meets = (met: boolean) => (met ? 'met' : 'NOT met');

export function positiveInteger(value: string, name: string): number {
  return integerFrom(value, name, 1);
}

export function nonNegativeInteger(value: string, name: string): number {
  return integerFrom(value, name, 0);
}

function integerFrom(value: string, name: string, least: 0 | 1): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < least)
    throw new Error(
      `--${name} must be ${least === 1 ? 'a positive integer' : 'an integer ≥ 0'}, got ${value}`,
    );
  return parsed;
}
