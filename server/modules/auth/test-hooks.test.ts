import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { testHooksEnabled } from './test-hooks.routes.ts';
import { loadConfig } from '../../config.ts';
import { buildApp } from '../../app.ts';
import { systemClock } from '../../clock.ts';
import { createDatabase } from '../../db/client.ts';

/** The app a real process builds: no clock given, on `t`'s database, with `env`. */
async function processApp(env: Record<string, string>) {
  const database = createDatabase(t!.databaseUrl, { max: 2 });
  const app = await buildApp({ config: loadConfig({ DATABASE_URL: t!.databaseUrl, UPLOADS_DIR: t!.uploadsDir, ...env }), database, logger: false });
  await app.ready();
  return { app, close: async () => (await app.close(), await database.close()) };
}

let t: TestApp | undefined;
afterEach(async () => {
  delete process.env.E2E_TEST_HOOKS;
  await t?.close();
  t = undefined;
});

const ORIGIN = { origin: 'http://localhost:3000' };

describe('test-only hooks (users, clock)', () => {
  it('are absent from an ordinary test process', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/test/users', headers: ORIGIN, payload: { role: 'client' } });
    expect(res.statusCode).toBe(404);
    const clock = await t.app.inject({ method: 'POST', url: '/api/test/clock', headers: ORIGIN, payload: { advanceMs: 60_000 } });
    expect(clock.statusCode).toBe(404);
    expect(t.app.routeRegistry.some((r) => r.url.startsWith('/api/test'))).toBe(false);
  });

  it('are absent from a development process even with E2E_TEST_HOOKS=1, whose clock is the system clock', async () => {
    process.env.E2E_TEST_HOOKS = '1';
    t = await createTestApp();
    const { app, close } = await processApp({ NODE_ENV: 'development' });
    try {
      expect(app.clock).toBe(systemClock);
      const res = await app.inject({ method: 'POST', url: '/api/test/clock', headers: ORIGIN, payload: { advanceMs: 60_000 } });
      expect(res.statusCode).toBe(404);
      expect(app.routeRegistry.some((r) => r.url.startsWith('/api/test'))).toBe(false);
    } finally {
      await close();
    }
  });

  it('is never enabled outside NODE_ENV=test, even with E2E_TEST_HOOKS=1', () => {
    const env = { E2E_TEST_HOOKS: '1' };
    expect(testHooksEnabled(loadConfig({ NODE_ENV: 'production', MFA_ENCRYPTION_KEY: 'a'.repeat(64) }), env)).toBe(false);
    expect(testHooksEnabled(loadConfig({ NODE_ENV: 'development' }), env)).toBe(false);
    expect(testHooksEnabled(loadConfig({ NODE_ENV: 'test' }), env)).toBe(true);
    expect(testHooksEnabled(loadConfig({ NODE_ENV: 'test' }), {})).toBe(false);
  });

  it('creates users that can sign in when the browser tests turn it on', async () => {
    process.env.E2E_TEST_HOOKS = '1';
    t = await createTestApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/test/users', headers: { origin: 'http://localhost:3000' }, payload: { role: 'client', name: 'Browser Client' } });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.user).toMatchObject({ name: 'Browser Client', role: 'client' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'http://localhost:3000' },
      payload: { username: created.user.username, password: created.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it("moves the browser-test process's clock forward, never back", async () => {
    process.env.E2E_TEST_HOOKS = '1';
    t = await createTestApp();
    const before = t.clock.now().getTime();
    const res = await t.app.inject({ method: 'POST', url: '/api/test/clock', headers: ORIGIN, payload: { advanceMs: 2 * 60 * 60_000 } });
    expect(res.statusCode).toBe(200);
    expect(new Date(res.json().now).getTime()).toBe(before + 2 * 60 * 60_000);
    expect(t.app.clock.now().getTime()).toBe(before + 2 * 60 * 60_000);
    const back = await t.app.inject({ method: 'POST', url: '/api/test/clock', headers: ORIGIN, payload: { advanceMs: -60_000 } });
    expect(back.statusCode).toBe(400);
  });

  it('gives a browser-test process started without a clock an offset clock on the real time', async () => {
    process.env.E2E_TEST_HOOKS = '1';
    t = await createTestApp();
    const { app, close } = await processApp({ NODE_ENV: 'test' });
    try {
      expect(Math.abs(app.clock.now().getTime() - Date.now())).toBeLessThan(1000);
      const res = await app.inject({ method: 'POST', url: '/api/test/clock', headers: ORIGIN, payload: { advanceMs: 3 * 60 * 60_000 } });
      expect(res.statusCode).toBe(200);
      expect(app.clock.now().getTime() - Date.now()).toBeGreaterThan(3 * 60 * 60_000 - 1000);
    } finally {
      await close();
    }
  });
});
