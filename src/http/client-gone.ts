/**
 * Whether a response stream's error only says that the client went away before the stream ended: Koa
 * pipes a body stream into the response, and the pipeline destroys the body with
 * ERR_STREAM_PREMATURE_CLOSE when the connection closes first. A client leaving a stream (the change
 * feed's live events, an export it stopped) is no failure of the server's.
 */
export const isClientGone = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | null | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
