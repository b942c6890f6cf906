import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../tests/helpers/test-app.ts';

// Decision 113: cookie-carrying writes are accepted only from PUBLIC_URL's origin (scheme and port
// included) and the configured ALLOWED_ORIGINS, compared exactly; the Host header plays no part.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://portal.example:8080', ALLOWED_ORIGINS: 'https://staff.example, http://10.0.0.5:3000' });
});
afterAll(async () => t.close());

async function logoutFrom(origin: string, host = 'portal.example:8080') {
  const client = await createUser(t, { role: 'client' });
  const { cookie } = await signIn(t, client, 'client');
  return (await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin, host } })).statusCode;
}

describe('the Origin rule', () => {
  it("accepts PUBLIC_URL's origin and each configured extra origin exactly", async () => {
    expect(await logoutFrom('http://portal.example:8080')).toBe(200);
    expect(await logoutFrom('https://staff.example')).toBe(200);
    expect(await logoutFrom('http://10.0.0.5:3000')).toBe(200);
  });

  it('refuses the https scheme of our http origin, another port, and an Origin that only matches the Host header', async () => {
    expect(await logoutFrom('https://portal.example:8080')).toBe(403);
    expect(await logoutFrom('http://portal.example')).toBe(403);
    expect(await logoutFrom('http://staff.example')).toBe(403);
    expect(await logoutFrom('https://evil.example', 'evil.example')).toBe(403);
    expect(await logoutFrom('http://localhost:3000', 'localhost:3000')).toBe(403);
  });

  it('refuses a configuration with an extra origin that is not one', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', ALLOWED_ORIGINS: 'ftp://files.example' })).toThrow();
  });

  it('accepts both loopback spellings on a local start without PUBLIC_URL, and nothing else', () => {
    const local = loadConfig({ NODE_ENV: 'development', PORT: '3100' });
    expect(local.allowedOrigins).toEqual(['http://localhost:3100', 'http://127.0.0.1:3100']);
    const deployed = loadConfig({ NODE_ENV: 'development', PORT: '3100', PUBLIC_URL: 'https://portal.example' });
    expect(deployed.allowedOrigins).toEqual(['https://portal.example']);
  });
});
