import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.ts';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')));
        done();
      },
    }),
  );
  return { logger, lines };
}

describe('createLogger', () => {
  it('redacts secret headers and codes wherever they are logged', () => {
    const { logger, lines } = captured();
    logger.info(
      { headers: { authorization: 'Basic abc', 'x-appkey': 'k3y' }, user: { login: 'ana', code: 's3cret' } },
      'x',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['Basic abc', 'k3y', 's3cret']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ user: { login: 'ana', code: '[redacted]' } });
  });

  it("keeps an error's code, under errorCode", () => {
    const { logger, lines } = captured();
    logger.error({ err: Object.assign(new Error('duplicate key'), { code: 11000 }) }, 'failed');
    expect(lines[0]).toMatchObject({ err: { message: 'duplicate key', errorCode: 11000 } });
  });
});
