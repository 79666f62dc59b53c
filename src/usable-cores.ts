import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Reads a file's text, undefined when it cannot be read (not Linux, no such cgroup file). */
type ReadText = (path: string) => string | undefined;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * The cores this process can keep busy: the machine's, or fewer under a container's CPU quota (cgroup v2
 * `cpu.max`, v1 `cpu.cfs_quota_us`), which Node 20's `availableParallelism` does not see: a container given
 * two CPUs on a large host would otherwise count the host's.
 */
export function usableCores(read: ReadText = readText, cores = availableParallelism()): number {
  const quota = cpuQuota(read);
  return quota === undefined ? cores : Math.max(1, Math.min(cores, Math.floor(quota)));
}

/** CPUs' worth of time per period the cgroup may use; undefined when unlimited or unknown. */
function cpuQuota(read: ReadText): number | undefined {
  const cpuMax = read('/sys/fs/cgroup/cpu.max'); // "max 100000", or "200000 100000" for two CPUs
  if (cpuMax !== undefined) {
    const [quota, period] = cpuMax.trim().split(/\s+/);
    return quota === 'max' ? undefined : ratio(quota, period);
  }
  const quota = read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'); // -1 when unlimited
  const period = read('/sys/fs/cgroup/cpu/cpu.cfs_period_us');
  return ratio(quota?.trim(), period?.trim());
}

function ratio(quota: string | undefined, period: string | undefined): number | undefined {
  const [q, p] = [Number(quota), Number(period)];
  return q > 0 && p > 0 ? q / p : undefined;
}
