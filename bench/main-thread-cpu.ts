import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times: USER_HZ, 100 on Linux on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time of this process's main thread (user and system, µs), from Linux's /proc: the import's own
 * thread, without V8's helper threads or the import's validation workers, which `process.cpuUsage` counts
 * too. In steps of 10 ms: good over a pass of seconds. Undefined where /proc has no such file.
 */
function mainThreadCpuMicros(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces, in parentheses): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}

/** Started now: `elapsed()` gives the main thread's CPU time since (µs), undefined where it cannot be told. */
export function mainThreadCpuSince(): { elapsed(): number | undefined } {
  const before = mainThreadCpuMicros();
  return {
    elapsed() {
      const now = mainThreadCpuMicros();
      return before === undefined || now === undefined ? undefined : now - before;
    },
  };
}
