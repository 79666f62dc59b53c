import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** Whether a process with this pid runs on this machine (in this pid namespace), as any user. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Where a pid names one process: on Linux this boot's pid namespace (containers sharing a host name, a
 * host's network or a data volume still have pids of their own), elsewhere the host.
 */
function currentPidSpace(): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

export const PID_SPACE = currentPidSpace();

/** A short name of a pid space, for file names. */
export const pidSpaceName = (space: string): string =>
  createHash('sha256').update(space).digest('hex').slice(0, 16);

/**
 * Whether the process that left a record (a lease, a spooled file, pending changes) is known to be gone:
 * it ran in this pid space and either no longer runs or had this process's pid, which makes it an earlier
 * run (as in a container, whose server is always pid 1): callers ask only about what this process does
 * not hold. A process of another pid space cannot be seen from here: not known to be gone.
 */
export const isGoneHere = (pid: number, space: string): boolean =>
  space === PID_SPACE && (pid === process.pid || !isRunning(pid));
