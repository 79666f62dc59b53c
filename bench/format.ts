/** Number formatting and argument parsing shared by the benches' printed reports. */

export const MiB = 1024 * 1024;

export const integer = (value: number) => Math.round(value).toLocaleString('en-US');
export const mib = (bytes: number) => `${integer(bytes / MiB)} MiB`;
/** MiB to a tenth, for sizes of a few MiB. */
export const mibTenths = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
export const meets = (met: boolean) => (met ? 'met' : 'NOT met');

export function positiveInteger(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw new Error(`--${name} must be a positive integer, got ${value}`);
  return parsed;
}
