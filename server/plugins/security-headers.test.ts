import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../tests/helpers/test-app.ts';
import { newCspNonce, pagePolicy, prerenderedPagePolicy } from './security-headers.ts';

let dev: TestApp;
let prod: TestApp;
beforeAll(async () => {
  dev = await createTestApp();
  prod = await createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example' });
});
afterAll(async () => {
  await dev.close();
  await prod.close();
});

describe('security headers', () => {
  it('sends nosniff, Referrer-Policy, frame denial and a locked-down CSP on API answers', async () => {
    const res = await dev.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
  });

  it('sends HSTS in production only', async () => {
    expect((await dev.app.inject({ method: 'GET', url: '/api/health' })).headers['strict-transport-security']).toBeUndefined();
    const res = await prod.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('marks the session cookie Secure in production', async () => {
    const client = await createUser(prod, { role: 'client' });
    const res = await prod.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://portal.example' },
      payload: { username: client.username, password: 'correct horse battery staple' },
    });
    expect(res.statusCode).toBe(200);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] as string[]);
    expect(cookies.find((c) => c.startsWith('sid='))).toMatch(/; HttpOnly; Secure; SameSite=Lax|; Secure;.*HttpOnly/);
    expect(cookies.find((c) => c.startsWith('signed_in='))).toMatch(/; Secure/);
  });

  it('forbids storing authenticated API answers and every /api/auth answer', async () => {
    const client = await createUser(dev, { role: 'client' });
    const { cookie } = await signIn(dev, client, 'client');
    expect((await dev.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).headers['cache-control']).toBe('no-store');
    const anonymous = await dev.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
  });

  it('allows on a server-rendered page only the scripts that carry its nonce: no hash, never unsafe-inline', () => {
    const nonce = newCspNonce();
    expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
    expect(newCspNonce()).not.toBe(nonce);
    const csp = pagePolicy(nonce);
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(scriptSrc).toBe(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('lets only inline scripts whose exact text is hashed run on a pre-rendered page, never unsafe-inline', () => {
    const csp = prerenderedPagePolicy('<html><script>window.a=1</script><script src="/x.js"></script></html>');
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(scriptSrc).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/=]+'$/);
    expect(csp).not.toContain("'unsafe-inline' 'sha");
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
