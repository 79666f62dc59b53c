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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'hsds-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: SECRET_KEYS.flatMap((key) => [`req.headers["${key}"]`, `headers["${key}"]`, `*.${key}`]),
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
