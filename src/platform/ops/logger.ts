import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs. Credentials never reach a log line: the redaction
 * list covers every place a request's `Authorization` header or a key could
 * be attached.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'token',
        'apiKey',
        'key',
        'password',
      ],
      censor: '[redacted]',
    },
  });
}
