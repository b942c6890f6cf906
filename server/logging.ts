import { Writable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { AppConfig } from './config.ts';

// Logs (decision 164): JSON lines in production (for a log shipper), one readable line per event in
// development; one line per request either way; no credentials in any line.

/** Where credentials could sit in a logged object; pino replaces them before the line is written. */
const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-metrics-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
];

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const SKIPPED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/** One JSON log line made readable: `12:04:05 INFO  GET /api/health 200 3 ms  key=value`. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json;
  }
  const time = new Date(Number(entry.time) || Date.now()).toISOString().slice(11, 19);
  const extras = Object.entries(entry)
    .filter(([k]) => !SKIPPED.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const errText = err ? `\n${err.stack ?? err.message ?? ''}` : '';
  return `${time} ${LEVELS[Number(entry.level)] ?? 'INFO '} ${String(entry.msg ?? '')}${extras ? `  ${extras}` : ''}${errText}`;
}

/** A stream that writes each pino line in the readable form to `out`. */
function prettyStream(out: NodeJS.WritableStream = process.stdout): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) out.write(`${prettyLine(line)}\n`);
      done();
    },
  });
}

/** The server's logger: JSON in production (or LOG_FORMAT=json), readable lines otherwise. */
export function createLogger(config: Pick<AppConfig, 'LOG_LEVEL' | 'isProduction'>, destination?: NodeJS.WritableStream): pino.Logger {
  const json = config.isProduction || process.env.LOG_FORMAT === 'json';
  const options: pino.LoggerOptions = { level: config.LOG_LEVEL, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (json) return pino(options, destination ?? process.stdout);
  return pino({ ...options, base: undefined }, prettyStream(destination ?? process.stdout));
}

/**
 * One line per answered request: method, path without its query (a query may carry a link's token),
 * status and time. Fastify's own two lines per request are turned off in server/app.ts.
 */
async function requestLogPlugin(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    // Nothing to build when the line would not be written (LOG_LEVEL above info and no error).
    if (reply.statusCode < 500 && (request.log as Partial<Pick<pino.Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info') === false) return done();
    const path = request.url.split('?')[0];
    const query = request.url.includes('?') ? '?…' : '';
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = `${request.method} ${path}${query} ${reply.statusCode} ${ms} ms`;
    if (reply.statusCode >= 500) request.log.error(line);
    else request.log.info(line);
    done();
  });
}

export const requestLog = fp(requestLogPlugin, { name: 'request-log' });
