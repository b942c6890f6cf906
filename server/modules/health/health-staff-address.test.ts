import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';

// Issue 23: a staff session used from outside ADMIN_ALLOWED_CIDRS has no staff rights anywhere,
// so the health answers show it only what an anonymous caller sees.

const INSIDE = '10.1.2.3';
const OUTSIDE = '203.0.113.50';
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8' });
  cookie = (await signIn(t, await createUser(t, { role: 'admin' }), 'admin')).cookie;
});
afterAll(async () => t.close());

const get = (url: string, remoteAddress: string) => t.app.inject({ method: 'GET', url, remoteAddress, headers: { cookie } });

describe('health detail and the admin address list', () => {
  it('shows the staff detail of /api/health only from an allowed address', async () => {
    expect((await get('/api/health', INSIDE)).json().memory.rssBytes).toBeGreaterThan(0);
    expect((await get('/api/health', OUTSIDE)).json()).toEqual({ success: true, status: 'ok', database: { ok: true } });
  });

  it('shows the staff detail of /api/health/ready only from an allowed address', async () => {
    expect((await get('/api/health/ready', INSIDE)).json().database.latencyMs).toBeGreaterThanOrEqual(0);
    expect((await get('/api/health/ready', OUTSIDE)).json()).toEqual({ success: true, status: 'ready', database: { ok: true }, storage: { ok: true } });
  });
});
