export interface MemoryPeaks {
  rssBytes: number;
  heapUsedBytes: number;
}

const SAMPLE_INTERVAL_MS = 250;

/**
 * Samples this process's memory every 250 ms until stopped and gives the highest values seen. A sample
 * can only be taken between tasks, so a peak inside a long synchronous stretch may be missed; the last
 * sample is taken on stopping.
 */
export function sampleMemoryPeaks(): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { rssBytes: 0, heapUsedBytes: 0 };
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peaks.rssBytes = Math.max(peaks.rssBytes, rss);
    peaks.heapUsedBytes = Math.max(peaks.heapUsedBytes, heapUsed);
  };
  sample();
  // Unreferenced: sampling alone must not keep the process alive.
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS).unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...peaks };
    },
  };
}
