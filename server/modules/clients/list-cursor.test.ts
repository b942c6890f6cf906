import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';

// Keyset (cursor) paging of the staff client and project lists (issue 22, decision 257): every order
// walked forwards and back across ties sees each row once, in the order of the page-number list; a
// row added while paging is not seen twice; a bad cursor is a 400; filters hold past a cursor; who
// may read a list is unchanged.

let t: TestApp;
let admin: Actor;
let owner: Actor;
const SORTS = ['date', 'name', 'activity'] as const;

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin');
  // Eleven clients at the same instant (the clock does not move), in three names of mixed case:
  // every order has ties that only the id breaks.
  for (let i = 0; i < 11; i++) await actor(t, 'client', ['Tie', 'tie', 'Other'][i % 3]);
  // Two created a microsecond apart: a cursor must keep the time whole, not round it to milliseconds.
  await t.app.db.execute(sql`update users set created_at = created_at + interval '1 microsecond' where id in (select id from users where role = 'client' order by id limit 2)`);
  owner = await actor(t, 'client', 'Owner');
  for (let i = 0; i < 7; i++) await createProjectVia(t, admin, owner.id, { name: i % 2 ? 'Same name' : 'same NAME' });
});
afterAll(() => t?.close());

interface ListPage {
  ids: string[];
  next: string | null;
  previous: string | null;
  hasMore: boolean;
  total: number;
}

async function get(url: string, headers = admin.headers) {
  return t.app.inject({ method: 'GET', url, headers });
}

async function listPage(url: string, headers = admin.headers): Promise<ListPage> {
  const res = await get(url, headers);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  const rows: { _id: string }[] = body.clients ?? body.projects;
  return { ids: rows.map((r) => r._id), next: body.cursors.next, previous: body.cursors.previous, hasMore: body.pagination.hasMore, total: body.pagination.total };
}

/** Walks a list to its end by `after` and back to its start by `before`, a page of three at a time. */
async function walk(base: string) {
  const sep = base.includes('?') ? '&' : '?';
  const pages: ListPage[] = [await listPage(`${base}${sep}pageSize=3`)];
  while (pages.at(-1)!.next) pages.push(await listPage(`${base}${sep}pageSize=3&after=${pages.at(-1)!.next}`));
  const back: ListPage[] = [pages.at(-1)!];
  while (back.at(-1)!.previous) back.push(await listPage(`${base}${sep}pageSize=3&before=${back.at(-1)!.previous}`));
  return { forward: pages, backward: back.reverse() };
}

const LISTS = () => [
  { name: 'clients', url: '/api/users/clients' },
  { name: "a client's projects", url: `/api/projects/client/${owner.id}` },
];

describe('cursor paging of the sorted lists', () => {
  it.each(SORTS)('walks every page by cursor, forwards and back, seeing each row once in the page-number order (sort=%s)', async (sort) => {
    for (const list of LISTS()) {
      const all = await listPage(`${list.url}?sort=${sort}&pageSize=100`);
      expect(all.ids.length, list.name).toBeGreaterThan(6);
      const { forward, backward } = await walk(`${list.url}?sort=${sort}`);
      expect(forward.flatMap((p) => p.ids), list.name).toEqual(all.ids);
      expect(backward.flatMap((p) => p.ids), list.name).toEqual(all.ids);
      expect(forward.every((p) => p.total === all.ids.length)).toBe(true);
      expect(forward.slice(0, -1).every((p) => p.hasMore)).toBe(true);
      expect(forward.at(-1)!.hasMore).toBe(false);
    }
  });

  it('walks the default order (no sort named) by cursor as well, the project list included', async () => {
    for (const list of LISTS()) {
      const all = await listPage(`${list.url}?pageSize=100`);
      const { forward } = await walk(list.url);
      expect(forward.flatMap((p) => p.ids), list.name).toEqual(all.ids);
      expect(forward[0].previous).toBeNull();
    }
  });

  it('a page-number answer carries the cursors too, so a caller can go on by cursor from any page', async () => {
    const second = await listPage('/api/users/clients?sort=name&page=2&pageSize=3');
    const third = await listPage(`/api/users/clients?sort=name&page=3&pageSize=3`);
    expect((await listPage(`/api/users/clients?sort=name&pageSize=3&after=${second.next}`)).ids).toEqual(third.ids);
    const first = await listPage('/api/users/clients?sort=name&page=1&pageSize=3');
    expect((await listPage(`/api/users/clients?sort=name&pageSize=3&before=${second.previous}`)).ids).toEqual(first.ids);
  });

  it('does not show a row twice when one is added while paging (newest first)', async () => {
    const first = await listPage('/api/users/clients?pageSize=4');
    // A new client is the newest: by page number it would push a row of page 1 onto page 2.
    t.clock.advance(60_000);
    const added = await actor(t, 'client', 'Late arrival');
    const rest: string[] = [];
    let next = first.next;
    while (next) {
      const page = await listPage(`/api/users/clients?pageSize=4&after=${next}`);
      rest.push(...page.ids);
      next = page.next;
    }
    const seen = [...first.ids, ...rest];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(added.id);
    expect((await listPage('/api/users/clients?pageSize=100')).ids).toEqual([added.id, ...seen]);
  });

  it('keeps the status filter past a cursor', async () => {
    const inProgress = (await listPage('/api/users/clients?pageSize=100')).ids.slice(0, 5);
    for (const id of inProgress) {
      expect((await t.app.inject({ method: 'PUT', url: `/api/users/clients/${id}/status`, headers: admin.headers, payload: { status: 'in-progress' } })).statusCode).toBe(200);
    }
    const { forward } = await walk('/api/users/clients?status=in-progress&sort=name');
    const seen = forward.flatMap((p) => p.ids);
    expect([...seen].sort()).toEqual([...inProgress].sort());
    expect(forward.every((p) => p.total === 5)).toBe(true);
  });
});

describe('bad cursors', () => {
  const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  const id = '0b9a4e0e-3f3b-4c53-8d0d-5a0f6c7e9d11';
  it.each([
    ['not base64url', 'abc+/='],
    ['not JSON', b64('{oops')],
    ['not the tuple', b64({ order: 'date', key: '1', id })],
    ['an id that is no uuid', b64(['date', '1', 'x'])],
    ['a time key that is no number', b64(['date', '2026-11-26', id])],
    ['a time key outside what PostgreSQL holds', b64(['date', '-999999999999999999', id])],
    ['a time key past the year 5138', b64(['date', '999999999999999999', id])],
    ['a cursor of another order', b64(['name', 'ade', id])],
    ['a name key PostgreSQL cannot hold', b64(['name', 'a\u0000b', id]) + '&sort=name'],
    ['too long', 'a'.repeat(3000)],
  ])('refuses %s with a 400', async (_label, cursor) => {
    for (const list of LISTS()) {
      for (const field of ['after', 'before']) {
        const res = await get(`${list.url}?${field}=${cursor}`);
        expect(res.statusCode, `${list.name} ${field}`).toBe(400);
        expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      }
    }
  });

  it('refuses after and before together', async () => {
    const { next } = await listPage('/api/users/clients?pageSize=2');
    const res = await get(`/api/users/clients?after=${next}&before=${next}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  });
});

describe('who may page by cursor', () => {
  it('is who may read the list: staff any, a client only its own projects, nobody signed out', async () => {
    const clients = await listPage('/api/users/clients?pageSize=2');
    const projects = await listPage(`/api/projects/client/${owner.id}?pageSize=2`);
    const other = await actor(t, 'client', 'Other client');
    expect((await get(`/api/users/clients?after=${clients.next}`, owner.headers)).statusCode).toBe(403);
    expect((await get(`/api/users/clients?after=${clients.next}`, {} as Actor['headers'])).statusCode).toBe(401);
    expect((await get(`/api/projects/client/${owner.id}?after=${projects.next}`, other.headers)).statusCode).toBe(404);
    expect((await get(`/api/projects/client/${owner.id}?after=${projects.next}`, {} as Actor['headers'])).statusCode).toBe(401);
    expect((await listPage(`/api/projects/client/${owner.id}?pageSize=2&after=${projects.next}`, owner.headers)).ids.length).toBe(2);
  });
});
