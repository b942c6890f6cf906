import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { testHooksEnabled } from './test-hooks.routes.ts';
import { loadConfig } from '../../config.ts';

let t: TestApp | undefined;
afterEach(async () => {
  delete process.env.E2E_TEST_HOOKS;
  await t?.close();
  t = undefined;
});

describe('test-only user hook', () => {
  it('is absent from an ordinary test process', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/test/users', headers: { origin: 'http://localhost:3000' }, payload: { role: 'client' } });
    expect(res.statusCode).toBe(404);
    expect(t.app.routeRegistry.some((r) => r.url.startsWith('/api/test'))).toBe(false);
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
});
