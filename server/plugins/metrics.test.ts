import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/mail.ts';
import { openEventStream } from '../../tests/helpers/event-stream.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../tests/helpers/test-app.ts';
import { METRICS_REFUSED } from './metrics.ts';

// GET /metrics (decision 163): who may read it, and that its numbers follow what happens.

const TOKEN = 'metrics-token-for-tests-abcdefghijkl';
const INSIDE = '10.1.2.3';
const OUTSIDE = '203.0.113.77';
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, ADMIN_ALLOWED_CIDRS: '10.0.0.0/8' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

const scrape = (remoteAddress: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

/** The value of one sample line, e.g. value(text, 'mail_outbox_messages{status="failed"}'). */
function value(text: string, sample: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  if (!line) throw new Error(`no sample ${sample} in:\n${text.slice(0, 2000)}`);
  return Number(line.slice(sample.length + 1));
}

describe('who may read /metrics', () => {
  it('refuses addresses outside ADMIN_ALLOWED_CIDRS without the token, even signed-in admins', async () => {
    const admin = await signIn(t, await createUser(t, { role: 'admin' }), 'admin');
    for (const headers of [{}, { 'x-metrics-token': 'metrics-token-for-tests-abcdefghijkX' }, { authorization: 'Bearer wrong' }, { cookie: admin.cookie }] as Record<string, string>[]) {
      const res = await scrape(OUTSIDE, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, code: 'FORBIDDEN', message: METRICS_REFUSED });
    }
  });

  it('serves the admin networks, and anyone with the token in either header', async () => {
    for (const [address, headers] of [
      [INSIDE, {}],
      [OUTSIDE, { 'x-metrics-token': TOKEN }],
      [OUTSIDE, { authorization: `Bearer ${TOKEN}` }],
    ] as const) {
      const res = await scrape(address, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    }
  });

  it('serves only this machine when no admin ranges are set', async () => {
    const open = await createTestApp({});
    try {
      expect((await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: OUTSIDE })).statusCode).toBe(403);
    } finally {
      await open.close();
    }
  });
});

describe('what /metrics says', () => {
  it('counts requests by route pattern and status, with their durations', async () => {
    const before = (await scrape(INSIDE)).body;
    const sample = 'http_requests_total{method="GET",route="/api/health",status_code="200"}';
    const had = before.includes(sample) ? value(before, sample) : 0;
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/projects/client/not-a-uuid' });
    const text = (await scrape(INSIDE)).body;
    expect(value(text, sample)).toBe(had + 3);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/health",status_code="200"}')).toBe(had + 3);
    // The pattern, never the raw address (bounded label values).
    expect(text).toContain('route="/api/projects/client/:clientId"');
    expect(text).not.toContain('not-a-uuid');
  });

  it('reports the pool, the outbox, live streams, event-loop lag and memory', async () => {
    const now = t.clock.now();
    await t.database.db.insert(mailOutbox).values([
      { to: 'a@example.test', subject: 's', text: 't', kind: 'test', status: 'pending', createdAt: now },
      { to: 'b@example.test', subject: 's', text: 't', kind: 'test', status: 'pending', createdAt: now },
      { to: 'c@example.test', subject: 's', text: 't', kind: 'test', status: 'failed', createdAt: now },
      { to: 'd@example.test', subject: 's', text: 't', kind: 'test', status: 'sent', createdAt: now },
    ]);
    const client = await signIn(t, await createUser(t, { role: 'client' }), 'client');
    const stream = await openEventStream(base, client.cookie);
    try {
      expect(stream.response.status).toBe(200);
      const text = (await scrape(INSIDE)).body;
      expect(value(text, 'mail_outbox_messages{status="pending"}')).toBe(2);
      expect(value(text, 'mail_outbox_messages{status="failed"}')).toBe(1);
      expect(value(text, 'live_stream_connections')).toBe(1);
      expect(value(text, 'db_pool_connections{state="max"}')).toBe(4);
      expect(value(text, 'db_pool_connections{state="total"}')).toBeGreaterThan(0);
      expect(value(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
      expect(value(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    } finally {
      await stream.close();
    }
    // The closed stream is no longer counted.
    const deadline = Date.now() + 5000;
    let open = 1;
    while (Date.now() < deadline && open !== 0) {
      open = value((await scrape(INSIDE)).body, 'live_stream_connections');
      if (open) await new Promise((r) => setTimeout(r, 50));
    }
    expect(open).toBe(0);
  });
});
