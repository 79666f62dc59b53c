export interface RetryOptions {
  /** Told of each failure, with the wait before the next attempt. */
  onFailure(error: unknown, retryInMs: number): void;
  firstDelayMs: number;
  /** The wait doubles after each failure up to this. */
  maxDelayMs: number;
  /** Checked before each attempt and wait: once true, no more attempts. */
  stopped?: () => boolean;
  /**
   * The waits keep the process alive: for a caller awaiting the result, whose process has nothing else to
   * do meanwhile (its database connections closed). Otherwise a background retry never holds a process
   * that would exit.
   */
  holdProcess?: boolean;
}

/**
 * Runs `task` until it succeeds (or is stopped), waiting longer after each failure. Unless `holdProcess`,
 * the waits do not keep the process alive by themselves: a command that gives up and exits is not held by a
 * pending retry.
 */
export async function retryUntilDone(
  task: () => Promise<unknown>,
  { onFailure, firstDelayMs, maxDelayMs, stopped = () => false, holdProcess = false }: RetryOptions,
): Promise<void> {
  for (let delayMs = firstDelayMs; !stopped(); delayMs = Math.min(delayMs * 2, maxDelayMs)) {
    try {
      await task();
      return;
    } catch (error) {
      if (stopped()) return;
      onFailure(error, delayMs);
      await new Promise((resolve) => {
        const wait = setTimeout(resolve, delayMs);
        if (!holdProcess) wait.unref();
      });
    }
  }
}
