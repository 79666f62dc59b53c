import { SingleBar } from 'cli-progress';

interface Progress {
  update(count: number): void;
  stop(): void;
}

/**
 * Runs `work`, showing the count it reports of `what` ("records read") as it goes: a live counter on a
 * terminal, a line every few seconds otherwise (CI logs, pipes). `doing` names the work ("importing"). The
 * counter is gone before `work`'s result is printed.
 */
export async function withProgress<T>(
  doing: string,
  what: string,
  work: (update: (count: number) => void) => Promise<T>,
): Promise<T> {
  const progress = progressReporter(doing, what);
  try {
    return await work(progress.update);
  } finally {
    progress.stop();
  }
}

function progressReporter(doing: string, what: string): Progress {
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      { format: `${doing} {value} ${what} | {duration_formatted}`, stream: process.stderr },
      undefined,
    );
    bar.start(0, 0);
    return { update: (count) => bar.update(count), stop: () => bar.stop() };
  }
  let last = 0;
  return {
    update: (count) => {
      if (Date.now() - last < 5000) return;
      last = Date.now();
      console.error(`${doing}: ${count} ${what}`);
    },
    stop: () => {},
  };
}
