import { pino, type DestinationStream, type Logger } from 'pino';

/** Header and field names whose values are secrets: never written to a log line. */
export const SECRET_KEYS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-appkey',
  'code',
  'password',
] as const;

/** pino's isoTime, formatted once per millisecond: a busy server writes several lines in each. */
let formattedAt = -1;
let formatted = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formattedAt = now;
    formatted = `,"time":"${new Date(now).toISOString()}"`;
  }
  return formatted;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'hsds-api' },
    timestamp: isoTime,
    // `*.code` is redacted (user codes are secrets), which would also hide an error's code: keep that
    // under another name, since database and system error codes are what an operator needs.
    serializers: {
      err: (error: Error & { code?: unknown }) => ({
        ...pino.stdSerializers.err(error),
        errorCode: error.code,
      }),
    },
    redact: {
      paths: SECRET_KEYS.flatMap((key) => [`req.headers["${key}"]`, `headers["${key}"]`, `*.${key}`]),
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
