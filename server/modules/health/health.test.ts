import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';

// Decision 115: anonymous callers learn only that the service and its database answer.

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => t.close());

const health = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/health', headers });

describe('/api/health', () => {
  it('tells anonymous callers and clients only ok, without memory, version or uptime', async () => {
    const client = await signIn(t, await createUser(t, { role: 'client' }), 'client');
    for (const headers of [{}, { cookie: client.cookie }, { 'x-metrics-token': 'wrong-token-wrong-token-wrong' }] as Record<string, string>[]) {
      const res = await health(headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, status: 'ok', database: { ok: true } });
    }
  });

  it('gives the detail to staff and to the metrics token', async () => {
    const admin = await signIn(t, await createUser(t, { role: 'admin' }), 'admin');
    for (const headers of [{ cookie: admin.cookie }, { 'x-metrics-token': TOKEN }] as Record<string, string>[]) {
      const body = (await health(headers)).json();
      expect(body.memory.heapUsedBytes).toBeGreaterThan(0);
      expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
      expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    }
  });
});
