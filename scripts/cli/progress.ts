import { SingleBar } from 'cli-progress';

export interface Progress {
  update(count: number): void;
  stop(): void;
}

/**
 * A live counter of `what` ("records read") on a terminal; a line every few seconds otherwise (CI logs,
 * pipes). `doing` names the work ("importing").
 */
export function progressReporter(doing: string, what: string): Progress {
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      { format: `${doing} {value} ${what} | {duration_formatted}`, stream: process.stderr },
      undefined,
    );
    bar.start(0, 0);
    let stopped = false;
    return {
      update: (count) => bar.update(count),
      stop: () => {
        if (!stopped) bar.stop();
        stopped = true;
      },
    };
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
