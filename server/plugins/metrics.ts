import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'drizzle-orm';
import { forbidden } from '../../common/errors.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { cidrList, clientAddressOf, inList } from '../modules/auth/admin-network.ts';

// GET /metrics in Prometheus' text format (decision 163): requests by route and status, the
// database pool, the mail outbox, live streams, event-loop lag and memory. One registry per app, so
// several apps in one process (the tests) never mix their numbers.

export const METRICS_REFUSED =
  'Metrics are served only to addresses in ADMIN_ALLOWED_CIDRS (or this machine when none are set), or with the metrics token (X-Metrics-Token or Authorization: Bearer).';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

const LOOPBACK = cidrList(['127.0.0.0/8', '::1']);

/** A token equal to METRICS_TOKEN, compared in constant time. */
function hasMetricsToken(request: FastifyRequest): boolean {
  const token = request.server.config.METRICS_TOKEN;
  if (!token) return false;
  const header = request.headers['x-metrics-token'];
  const auth = request.headers.authorization;
  const given = typeof header === 'string' ? header : auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : undefined;
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The admin networks, or only this machine when no ranges are set (metrics are never open to all). */
function fromMetricsNetwork(request: FastifyRequest): boolean {
  const config = request.server.config;
  const address = clientAddressOf(config, request);
  if (!config.ADMIN_ALLOWED_CIDRS.length) return inList(LOOPBACK, address);
  return inList(cidrList(config.ADMIN_ALLOWED_CIDRS), address);
}

async function metricsPlugin(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  // Both are kept by one update per answer (decision 171): the histogram observes the time, and the
  // counter is its count per label set, copied when metrics are read.
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
    async collect() {
      const { values } = await durations.get();
      this.reset();
      for (const v of values) {
        if (v.metricName === 'http_request_duration_seconds_count') this.inc(v.labels as Record<'method' | 'route' | 'status_code', string>, v.value);
      }
    },
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const streams = new Gauge({ name: 'live_stream_connections', help: 'Server-sent event streams open now', registers: [registry] });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting requests) and the configured maximum',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, app.pool.totalCount);
      this.set({ state: 'idle' }, app.pool.idleCount);
      this.set({ state: 'waiting' }, app.pool.waitingCount);
      this.set({ state: 'max' }, app.pool.options.max ?? 10);
    },
  });
  new Gauge({
    name: 'mail_outbox_messages',
    help: 'Mails in the outbox waiting to be sent (pending) and given up after their retries (failed)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await app.db
        .select({ status: mailOutbox.status, count: sql<number>`count(*)::int` })
        .from(mailOutbox)
        .where(sql`${mailOutbox.status} in ('pending', 'failed')`)
        .groupBy(mailOutbox.status);
      this.set({ status: 'pending' }, rows.find((r) => r.status === 'pending')?.count ?? 0);
      this.set({ status: 'failed' }, rows.find((r) => r.status === 'failed')?.count ?? 0);
    },
  });
  app.decorate('metrics', registry);

  // Streams are counted by a hook on the stream routes only (every route registered after this
  // plugin, which is all of the API), so other requests pay nothing for it (decision 185).
  const countStream: onRequestHookHandler = (request, _reply, done) => {
    streams.inc();
    request.raw.once('close', () => streams.dec());
    done();
  };
  app.addHook('onRoute', (route) => {
    const produces = (route.schema as { produces?: readonly string[] } | undefined)?.produces;
    if (!produces?.includes('text/event-stream')) return;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [countStream] : Array.isArray(own) ? [...own, countStream] : [own, countStream];
  });
  // Plain callback hooks: no promise and no extra turn of the microtask queue per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    durations.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  app.get(
    '/metrics',
    { config: { access: 'public' }, schema: { tags: ['system'], summary: 'Prometheus metrics (admin networks or the metrics token only)', hide: false } },
    async (request, reply) => {
      if (!hasMetricsToken(request) && !fromMetricsNetwork(request)) throw forbidden(METRICS_REFUSED);
      reply.header('Cache-Control', 'no-store').type(registry.contentType);
      return registry.metrics();
    },
  );
}

export default fp(metricsPlugin, { name: 'metrics' });
