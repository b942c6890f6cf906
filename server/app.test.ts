import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../common/errors.ts';
import accessPlugin, { type Access } from './plugins/access.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../tests/helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('API base', () => {
  it('reports process and database status at /api/health (the process detail to staff only: decision 115)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'ok', database: { ok: true } });
    expect(res.headers['cache-control']).toBe('no-store');
    const admin = await signIn(t, await createUser(t, { role: 'admin' }), 'admin');
    const body = (await t.app.inject({ method: 'GET', url: '/api/health', headers: { cookie: admin.cookie } })).json();
    expect(body).toMatchObject({ success: true, status: 'ok', database: { ok: true } });
    expect(body.memory.rssBytes).toBeGreaterThan(0);
    expect(typeof body.version).toBe('string');
  });

  it('answers unknown /api paths with the JSON error shape and 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    const body = apiErrorSchema.parse(res.json());
    expect(body).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('gives every response a request id, echoing a well-formed one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const other = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'bad id<script>' } });
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bodies over the size limit with 413 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(t.config.BODY_LIMIT_BYTES + 10) }),
    });
    // The route only accepts GET, so the body is refused by size before routing decides.
    expect([404, 413]).toContain(res.statusCode);
    expect(apiErrorSchema.safeParse(res.json()).success).toBe(true);
  });

  it('answers malformed JSON with 400 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/does-not-exist',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(apiErrorSchema.safeParse(res.json()).success).toBe(true);
  });

  it('describes the API as OpenAPI at /api/docs from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health'].get.responses['200']).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('sends the security headers on API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('refuses to register a route that does not declare who may call it, or declares an unknown level', async () => {
    const app = Fastify();
    await app.register(accessPlugin);
    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow('GET /api/undeclared does not declare who may call it (config.access)');
    expect(() => app.get('/api/everyone', { config: { access: 'everyone' as Access } }, async () => 'x')).toThrow('does not declare who may call it');
    // A staff permission must be one of the closed list, and the only key (decision 272).
    expect(() => app.get('/api/unknown-permission', { config: { access: { staff: 'audit.write' } as unknown as Access } }, async () => 'x')).toThrow('does not declare who may call it');
    expect(() => app.get('/api/two-keys', { config: { access: { staff: 'audit.read', role: 'owner' } as unknown as Access } }, async () => 'x')).toThrow('does not declare who may call it');
    expect(() => app.get('/api/both', { config: { access: { staff: 'projects.read', client: false } as unknown as Access } }, async () => 'x')).toThrow('does not declare who may call it');
    // Decision 273: 'admin' ("any staff role") is refused; a route names its permission, or 'staff' for one's own account.
    expect(() => app.get('/api/any-staff', { config: { access: 'admin' as Access } }, async () => 'x')).toThrow(
      "GET /api/any-staff declares access 'admin', which is no longer accepted: name the permission it needs",
    );
    app.get('/api/declared', { config: { access: 'public' } }, async () => 'x');
    app.get('/api/audited', { config: { access: { staff: 'audit.read' } } }, async () => 'x');
    app.get('/api/own-account', { config: { access: 'staff' } }, async () => 'x');
    app.get('/api/both-sides', { config: { access: { staff: 'projects.read', client: true } } }, async () => 'x');
    // Only the declared routes are listed (their HEAD twins answer as the GETs do).
    expect(app.routeRegistry).toEqual([
      { method: 'GET', url: '/api/declared', access: 'public' },
      { method: 'GET', url: '/api/audited', access: { staff: 'audit.read' } },
      { method: 'GET', url: '/api/own-account', access: 'staff' },
      { method: 'GET', url: '/api/both-sides', access: { staff: 'projects.read', client: true } },
    ]);
    await app.close();
  });
});
