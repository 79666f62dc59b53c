import { readFileSync } from 'node:fs';

export interface MemoryUse {
  rssBytes: number;
  /**
   * The resident memory that is the process's own (Linux RssAnon): RSS without the pages of mapped files,
   * such as the stand-in's data file, which are the kernel's page cache and given back under pressure.
   */
  anonBytes: number;
  heapUsedBytes: number;
}

/** The highest RSS and heap sampled over a stretch (not necessarily at the same moment). */
export type MemoryPeaks = MemoryUse;

const DEFAULT_SAMPLE_INTERVAL_MS = 250;

export function memoryUse(): MemoryUse {
  const { rss, heapUsed } = process.memoryUsage();
  return { rssBytes: rss, anonBytes: anonymousResident() ?? rss, heapUsedBytes: heapUsed };
}

function anonymousResident(): number | undefined {
  try {
    const kib = /^RssAnon:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Samples this process's memory every `intervalMs` until stopped and gives the highest values seen. A
 * sample can only be taken between tasks, so a peak inside a long synchronous stretch may be missed; the
 * last sample is taken on stopping.
 */
export function sampleMemoryPeaks(intervalMs = DEFAULT_SAMPLE_INTERVAL_MS): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { rssBytes: 0, anonBytes: 0, heapUsedBytes: 0 };
  const sample = () => {
    const now = memoryUse();
    peaks.rssBytes = Math.max(peaks.rssBytes, now.rssBytes);
    peaks.anonBytes = Math.max(peaks.anonBytes, now.anonBytes);
    peaks.heapUsedBytes = Math.max(peaks.heapUsedBytes, now.heapUsedBytes);
  };
  sample();
  // Unreferenced: sampling alone must not keep the process alive.
  const timer = setInterval(sample, intervalMs).unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}
