/**
 * The processes a bench forks (a stand-in, the app, a bare server), each apart so that its memory peaks
 * and CPU profile are its own. The protocol over the IPC channel: the child sends its address once
 * listening, answers each request (and 'cpu', with its CPU time so far) in turn, and on 'stop' closes,
 * sends its memory peaks and exits.
 */
import { fork } from 'node:child_process';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleMemoryPeaks, type MemoryPeaks } from './memory-peaks.ts';

type ChildMessage<Reply> =
  | { address: string }
  | { reply: Reply }
  | { failed: string }
  | { peaks: MemoryPeaks }
  | { cpu: NodeJS.CpuUsage };
type ParentMessage<Request> = { request: Request } | 'cpu' | 'stop';

export interface ForkedChild<Request, Reply> {
  /** What the child serves on: a URL or a MongoDB URI. */
  address: string;
  ask(request: Request): Promise<Reply>;
  /** The child's CPU time so far (user and system, in µs, as `process.cpuUsage()`). */
  cpuUsage(): Promise<NodeJS.CpuUsage>;
  /** Stops the child and gives its memory peaks over its whole life. */
  stop(): Promise<MemoryPeaks>;
}

/** Forks `script` with `args` and waits until it sends its address. */
export async function forkChild<Request = never, Reply = never>(
  script: URL,
  args: string[],
): Promise<ForkedChild<Request, Reply>> {
  const name = basename(fileURLToPath(script));
  // Inherits this process's node options: the TypeScript loader, and --cpu-prof when profiling.
  const child = fork(script, args, { execArgv: process.execArgv });
  // Messages come strictly in answer to what was sent, so each one goes to the oldest waiter.
  const waiting: { resolve(message: ChildMessage<Reply>): void; reject(error: Error): void }[] = [];
  let died: Error | undefined;
  child.on('message', (message) => waiting.shift()?.resolve(message as ChildMessage<Reply>));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      // The root cause of whatever fails meanwhile (typically the stand-in out of memory).
      died = new Error(`${name} died (${child.signalCode ?? `exit code ${child.exitCode}`})`);
      for (const waiter of waiting.splice(0)) waiter.reject(died);
      resolve();
    }),
  );
  const exchange = (message?: ParentMessage<Request>) => {
    if (died) return Promise.reject(died);
    const answered = new Promise<ChildMessage<Reply>>((resolve, reject) => waiting.push({ resolve, reject }));
    // A send fails only when the child is gone, and then its exit rejects `answered`.
    if (message !== undefined) child.send(message, () => {});
    return answered;
  };
  const unexpected = (message: ChildMessage<Reply>, when: string) =>
    new Error(`${name} sent ${JSON.stringify(message)} ${when}`);

  const ready = await exchange();
  if (!('address' in ready)) throw unexpected(ready, 'before its address');
  return {
    address: ready.address,
    async ask(request) {
      const answer = await exchange({ request });
      if ('failed' in answer) throw new Error(`${name}: ${answer.failed}`);
      if (!('reply' in answer)) throw unexpected(answer, 'in answer to a request');
      return answer.reply;
    },
    async cpuUsage() {
      const answer = await exchange('cpu');
      if (!('cpu' in answer)) throw unexpected(answer, 'in answer to cpu');
      return answer.cpu;
    },
    async stop() {
      const answer = await exchange('stop');
      await exited;
      if (!('peaks' in answer)) throw unexpected(answer, 'on stopping');
      return answer.peaks;
    },
  };
}

export interface ServeOptions<Request, Reply> {
  address: string;
  answer?: (request: Request) => Promise<Reply>;
  close(): Promise<void>;
}

export interface ChildOfBench {
  /** Sends the address, then answers requests until told to stop, when it closes and exits. */
  serve<Request, Reply>(options: ServeOptions<Request, Reply>): void;
}

/**
 * In a forked child: starts sampling its memory at once, so that the peaks include whatever it starts
 * (a stand-in loading its data directory).
 */
export function childOfBench(): ChildOfBench {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error(`${process.argv[1]} is forked by a bench (bench/child-process.ts)`);
  const memory = sampleMemoryPeaks();
  return {
    serve<Request, Reply>({ address, answer, close }: ServeOptions<Request, Reply>) {
      let stopping = false;
      process.on('message', async (received) => {
        const message = received as ParentMessage<Request>;
        if (message === 'cpu') {
          send({ cpu: process.cpuUsage() } satisfies ChildMessage<never>);
          return;
        }
        if (message === 'stop') {
          stopping = true;
          await close();
          send({ peaks: memory.stop() } satisfies ChildMessage<never>, () => process.disconnect());
          return;
        }
        try {
          if (answer === undefined) throw new Error('takes no requests');
          send({ reply: await answer(message.request) } satisfies ChildMessage<Reply>);
        } catch (error) {
          send({
            failed: error instanceof Error ? error.message : String(error),
          } satisfies ChildMessage<Reply>);
        }
      });
      // The bench failed or was interrupted: do not outlive it.
      process.once('disconnect', () => {
        if (!stopping) process.exit(1);
      });
      send({ address } satisfies ChildMessage<never>);
    },
  };
}
