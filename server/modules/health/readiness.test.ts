import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { createLocalStorage } from '../../storage/local-storage.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';

// Readiness (decision 162): 200 while the database and the file storage answer, 503 when either does not.

const TOKEN = 'metrics-token-for-readiness-tests-0123';
let t: TestApp;
let storageDown = false;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN }, {
    // The real local storage, whose answers fail while the test says the disk is gone.
    storage: (dir) => {
      const local = createLocalStorage(dir);
      return { ...local, stat: (key) => (storageDown ? Promise.reject(new Error('EIO: disk gone')) : local.stat(key)) } satisfies FileStorage;
    },
  });
});
afterAll(async () => t.close());

const ready = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/health/ready', headers });

describe('/api/health/ready', () => {
  it('is 200 when the database and the storage answer, with only booleans for strangers', async () => {
    const res = await ready();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ success: true, status: 'ready', database: { ok: true }, storage: { ok: true } });
    const detail = (await ready({ 'x-metrics-token': TOKEN })).json();
    expect(detail.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(detail.storage.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('is 503 when the storage does not answer, and ready again when it does', async () => {
    storageDown = true;
    try {
      const res = await ready();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ success: true, status: 'not-ready', database: { ok: true }, storage: { ok: false } });
      // The error is named only to the monitor, never the underlying message.
      const detail = (await ready({ 'x-metrics-token': TOKEN })).json();
      expect(detail.storage).toEqual({ ok: false, error: 'storage unreachable' });
      // Liveness does not depend on the storage.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      storageDown = false;
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('is 503 when the database is gone', async () => {
    // The test database is dropped under the running app (its connections are ended by force).
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE ${new URL(t.databaseUrl).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
    const res = await ready();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ success: true, status: 'not-ready', database: { ok: false }, storage: { ok: true } });
  });
});
