import type { Middleware } from 'koa';
import type { ProtocolDependencies } from '../protocols.ts';
import { describeBody, describeCall, responseBodyLimit } from './call-description.ts';
import type { MetaEntryQueue } from './entry-queue.ts';
import { isRecordedCall } from './recorded-calls.ts';

declare module 'koa' {
  interface DefaultState {
    /** Set by a handler that keeps the meta entry of its call itself (an import answered 202). */
    metaEntryId?: string;
  }
}

/**
 * Records a meta entry for the calls the meta protocol logs (`isRecordedCall`). Mounted outside the error
 * handler (and inside compression), it sees the status and body the caller finally got. Nothing is done
 * on the way to the caller: once the response has gone (or the connection closed), the entry is described,
 * redacted and queued for a background write, whose failure cannot reach the call.
 */
export function metaRecorder({ config }: ProtocolDependencies, queue: MetaEntryQueue): Middleware {
  return async (ctx, next) => {
    if (!isRecordedCall(ctx.method, ctx.path, config)) return next();
    const at = new Date();
    try {
      await next();
    } finally {
      // Taken now: by the time the response has gone out, compression has replaced the body with a stream.
      const body: unknown = ctx.body;
      const record = () => {
        if (ctx.state.metaEntryId !== undefined) return;
        try {
          queue.add({
            ...describeCall(ctx, config, at),
            response_body: describeBody(body, responseBodyLimit(ctx, config)),
            status: 'Complete',
          });
        } catch (error) {
          ctx.state.logger.error({ errorName: (error as Error).name }, 'meta entry could not be described');
        }
      };
      // A caller that left before the answer (an import it waited for, then gave up on) closed the
      // response already: its call is recorded all the same, it may have changed the directory.
      if (ctx.res.closed) record();
      else ctx.res.once('close', record);
    }
  };
}
