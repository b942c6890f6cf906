import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_STATUSES, nextClientStatus } from '../../../common/schemas/clients.ts';
import { LIST_PAGE_SIZE } from '../../../common/schemas/pagination.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';

let t: TestApp;
let admin: Actor;

beforeAll(async () => ({ t, admin } = await appWithAdmin()));
afterAll(() => t?.close());

const createClient = (payload: Record<string, unknown>, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url: '/api/users/clients', headers, payload });

describe('POST /api/users/clients', () => {
  it('creates a client with status new and sends the invitation, returning its link', async () => {
    const res = await createClient({ name: 'Chidi Okafor', email: 'Chidi@Example.test' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.client).toMatchObject({ name: 'Chidi Okafor', email: 'chidi@example.test', username: 'chidi.okafor', status: 'new', unreadCount: 0, projects: 0 });
    expect(body.invitationUrl).toMatch(/^http:\/\/localhost:3000\/account\/set-password#token=.+/);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'chidi@example.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe('invitation');
    expect(mails[0].text).toContain(body.invitationUrl);
  });

  it('keeps the username staff edited, and refuses one that is taken', async () => {
    const res = await createClient({ name: 'Ngozi Eze', email: 'ngozi@example.test', username: 'NEze-Portal' });
    expect(res.statusCode).toBe(201);
    expect(res.json().client.username).toBe('neze-portal');
    const taken = await createClient({ name: 'Other', email: 'other@example.test', username: 'neze-portal' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('The username neze-portal is already taken');
  });

  it('picks a free username when the suggested one is taken', async () => {
    const first = await createClient({ name: 'Tunde Bello', email: 'tunde1@example.test' });
    const second = await createClient({ name: 'Tunde Bello', email: 'tunde2@example.test' });
    expect(first.json().client.username).not.toBe(second.json().client.username);
  });

  it('refuses a second account with the same e-mail address', async () => {
    await createClient({ name: 'Once', email: 'once@example.test' });
    const again = await createClient({ name: 'Twice', email: 'ONCE@example.test' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, code: 'CONFLICT', message: 'An account with this e-mail address already exists' });
  });

  it.each([
    [{ name: '', email: 'a@example.test' }, 'body.name'],
    [{ name: 'A', email: 'not-an-email' }, 'body.email'],
    [{ name: 'A', email: 'b@example.test', username: 'x' }, 'body.username'],
    [{ email: 'c@example.test' }, 'body.name'],
  ])('refuses %j with a validation error on %s', async (payload, field) => {
    const res = await createClient(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('lets only admins create clients', async () => {
    const client = await actor(t, 'client');
    expect((await createClient({ name: 'X', email: 'x@example.test' }, client.headers)).statusCode).toBe(403);
    expect((await createClient({ name: 'X', email: 'x@example.test' }, { cookie: '', origin: admin.headers.origin })).statusCode).toBe(401);
  });
});

describe('GET /api/users/clients', () => {
  it('lists clients with their project counts and unread counts', async () => {
    const busy = await actor(t, 'client', 'Busy Client');
    await createProjectVia(t, admin, busy.id);
    await createProjectVia(t, admin, busy.id);
    const res = await t.app.inject({ method: 'GET', url: '/api/users/clients', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const found = res.json().clients.find((c: { _id: string }) => c._id === busy.id);
    expect(found).toMatchObject({ name: 'Busy Client', projects: 2, unreadCount: 0, status: 'new' });
    expect(res.json().clients.every((c: { _id: string }) => c._id !== admin.id)).toBe(true);
  });

  it('answers with the same number of database queries for 1 or 30 clients (no query per client)', async () => {
    const solo = await createTestApp();
    try {
      const soloAdmin = await actor(solo, 'admin');
      const countQueries = async () => {
        const pool = solo.database.pool;
        const original = pool.query.bind(pool);
        let n = 0;
        pool.query = ((...args: Parameters<typeof original>) => {
          n++;
          return original(...args);
        }) as typeof pool.query;
        try {
          const res = await solo.app.inject({ method: 'GET', url: '/api/users/clients', headers: soloAdmin.headers });
          expect(res.statusCode).toBe(200);
          return { n, count: res.json().clients.length };
        } finally {
          pool.query = original as typeof pool.query;
        }
      };
      const c1 = await actor(solo, 'client');
      await createProjectVia(solo, soloAdmin, c1.id);
      const one = await countQueries();
      for (let i = 0; i < 29; i++) await actor(solo, 'client');
      const thirty = await countQueries();
      expect(one.count).toBe(1);
      expect(thirty.count).toBe(30);
      expect(thirty.n).toBe(one.n);
    } finally {
      await solo.close();
    }
  });

  it(`pages clients (${LIST_PAGE_SIZE} by default), newest first`, async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/users/clients', headers: admin.headers });
    const total = all.json().pagination.total;
    expect(all.json().pagination).toMatchObject({ page: 1, pageSize: LIST_PAGE_SIZE });
    expect(total).toBeGreaterThan(3);
    t.clock.advance(60_000);
    const newest = await createClient({ name: 'Newest Client', email: 'newest@example.test' });
    const page1 = await t.app.inject({ method: 'GET', url: '/api/users/clients?pageSize=2', headers: admin.headers });
    expect(page1.json().clients[0]._id).toBe(newest.json().client._id);
    expect(page1.json().pagination).toEqual({ page: 1, pageSize: 2, total: total + 1, hasMore: true });
    const page2 = await t.app.inject({ method: 'GET', url: '/api/users/clients?pageSize=2&page=2', headers: admin.headers });
    expect(page2.json().clients.map((c: { _id: string }) => c._id)).not.toContain(newest.json().client._id);
  });

  it('is for admins only', async () => {
    const client = await actor(t, 'client');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/clients', headers: client.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/clients' })).statusCode).toBe(401);
  });
});

describe('PUT /api/users/clients/:id/status', () => {
  it('cycles new → in-progress → completed → new', async () => {
    const client = await actor(t, 'client');
    let status: (typeof CLIENT_STATUSES)[number] = 'new';
    const seen: string[] = [];
    for (let i = 0; i < CLIENT_STATUSES.length; i++) {
      status = nextClientStatus(status);
      const res = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${client.id}/status`, headers: admin.headers, payload: { status } });
      expect(res.statusCode).toBe(200);
      expect(res.json().client).toMatchObject({ _id: client.id, status });
      seen.push(status);
    }
    expect(seen).toEqual(['in-progress', 'completed', 'new']);
  });

  it('refuses an unknown status, a user who is not a client, and non-admins', async () => {
    const client = await actor(t, 'client');
    const bad = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${client.id}/status`, headers: admin.headers, payload: { status: 'paused' } });
    expect(bad.statusCode).toBe(400);
    const notClient = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${admin.id}/status`, headers: admin.headers, payload: { status: 'completed' } });
    expect(notClient.statusCode).toBe(404);
    const self = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${client.id}/status`, headers: client.headers, payload: { status: 'completed' } });
    expect(self.statusCode).toBe(403);
  });
});
