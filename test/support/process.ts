import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** Starts `tsx <script> [args]` with extra environment variables, collecting its output. */
export function startScript(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): RunningProcess {
  return startProcess(process.execPath, ['--import', 'tsx', script, ...args], env);
}

/** Starts `command [args]` with extra environment variables, collecting its output. */
export function startProcess(command: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  return { child, output: () => output, exited };
}

/** Polls `probe` until it returns true, failing after `timeoutMs`. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
