import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpProblem } from '../http/problem.ts';
import { PID_SPACE, pidSpaceName } from '../process-running.ts';
import { notUtf8, refusingWideEncodings, WideEncodingError } from './sources/utf8.ts';

/** Where NDJSON bodies are kept between being received and imported: under `HSDS_DATA_DIR`. */
export const spoolDirectory = (dataDir: string) => join(dataDir, 'import-spool');

/**
 * A spooled body's file is named after the process receiving it and its pid space (containers sharing a
 * data volume all run as pid 1), so that clean-ups spare live ones: `<pid>@<space>@<uuid>.ndjson`.
 */
const spoolFileName = () => `${process.pid}@${pidSpaceName(PID_SPACE)}@${randomUUID()}.ndjson`;

/** The process that spooled this file and the name of its pid space, if its name says (`spoolFileName`). */
export function spoolingProcess(fileName: string): { pid: number; spaceName: string } | undefined {
  const named = /^(\d+)@([^@]+)@/.exec(fileName);
  return named ? { pid: Number(named[1]), spaceName: named[2]! } : undefined;
}

const tooLarge = (limitBytes: number) =>
  new HttpProblem(413, `The request body is larger than ${limitBytes} bytes.`);

/**
 * The request body's chunks as they arrive, refused with 413 as soon as it passes `limitBytes`: at once
 * when Content-Length says so, else when the count of bytes received does (chunked bodies). A body whose
 * first bytes show UTF-16 or UTF-32 is refused with 415 as soon as they arrive, as a body labelled with a
 * charset other than UTF-8 is: no record of it could be read.
 */
export async function* limitedBody(request: IncomingMessage, limitBytes: number): AsyncGenerator<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > limitBytes) throw tooLarge(limitBytes);
  let received = 0;
  try {
    for await (const chunk of refusingWideEncodings(request as AsyncIterable<Buffer>)) {
      received += chunk.length;
      if (received > limitBytes) throw tooLarge(limitBytes);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof WideEncodingError) {
      throw new HttpProblem(415, `${notUtf8('The request body', error.encoding)}.`);
    }
    // A client that goes away mid-upload is not a server fault: nothing is imported, nobody is answered.
    if (
      !(error instanceof HttpProblem) &&
      ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || request.destroyed)
    ) {
      throw new HttpProblem(400, 'The request body was cut off before its end.');
    }
    throw error;
  }
}

/** The whole body in memory, within the limit (for JSON, which is parsed whole anyway). */
export async function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of limitedBody(request, limitBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Writes the body to a new file in `directory`, within the limit, and returns its path; a partial file is
 * removed. Memory stays flat whatever the size, and the body is all received before anything is imported.
 */
export async function spoolBody(
  request: IncomingMessage,
  limitBytes: number,
  directory: string,
): Promise<string> {
  await mkdir(directory, { recursive: true });
  const file = join(directory, spoolFileName());
  // Created before the body is read: a stream that opened the file itself could still be opening it when
  // a body refused at once fails, and create it after its removal.
  const handle = await open(file, 'wx');
  try {
    await pipeline(Readable.from(limitedBody(request, limitBytes)), handle.createWriteStream());
    return file;
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  } finally {
    await handle.close().catch(() => {});
  }
}
