import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import {
  THREAD_PAGE_SIZE_DEFAULT,
  THREAD_PAGE_SIZE_MAX,
  compareThreadPosition,
  threadCursor,
  type Message,
} from '../../../common/schemas/messages.ts';

const ORIGIN = 'http://localhost:3000';
const MISSING = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
let adminAuth: { cookie: string };
let clientAuth: { cookie: string };
let otherAuth: { cookie: string };
let client: { id: string };
let admin: { id: string };
let codeSeq = 0;

async function createProject(clientId: string): Promise<string> {
  const [row] = await t.database.db
    .insert(projects)
    .values({ clientId, name: `Paging ${++codeSeq}`, code: `PAGE-${codeSeq}`, createdAt: t.clock.now() })
    .returning({ id: projects.id });
  return row.id;
}

/**
 * Inserts `count` messages straight into the thread in groups sharing one timestamp (taken from the
 * fake clock, which then moves on), as a busy import or a burst would leave them.
 */
async function seedThread(projectId: string, count: number, perTimestamp: number): Promise<void> {
  const rows = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % perTimestamp === 0) t.clock.advance(1000);
    const fromStaff = i % 3 === 0;
    rows.push({
      projectId,
      senderId: fromStaff ? admin.id : client.id,
      receiverId: fromStaff ? client.id : null,
      subject: '',
      text: `Seeded ${i}`,
      createdAt: t.clock.now(),
    });
  }
  await t.database.db.insert(messages).values(rows);
  t.clock.advance(1000);
}

const page = (auth: { cookie: string }, projectId: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/messages/project/${projectId}${query}`, headers: { cookie: auth.cookie } });

/** Reads the whole thread page by page, newest page first, as the dashboards do. */
async function readAllPages(projectId: string, limit?: number): Promise<{ pages: Message[][]; hasMore: boolean[] }> {
  const pages: Message[][] = [];
  const hasMore: boolean[] = [];
  let before: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const params = new URLSearchParams();
    if (before) params.set('before', before);
    if (limit) params.set('limit', String(limit));
    const res = await page(adminAuth, projectId, `?${params}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { success: true; messages: Message[]; hasMore: boolean };
    pages.push(body.messages);
    hasMore.push(body.hasMore);
    if (!body.hasMore) break;
    before = threadCursor(body.messages[0]);
  }
  return { pages, hasMore };
}

/** The whole thread in one list, oldest first, from newest-first pages. */
const joined = (pages: Message[][]) => [...pages].reverse().flat();

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
  client = await createUser(t, { role: 'client' });
  const other = await createUser(t, { role: 'client' });
  adminAuth = await signIn(t, admin, 'admin');
  clientAuth = await signIn(t, client, 'client');
  otherAuth = await signIn(t, other, 'client');
});

afterAll(async () => {
  await t?.close();
});

describe('thread paging', () => {
  it('answers the newest 100 oldest first with hasMore, then earlier pages that neither overlap nor skip when many messages share a timestamp', async () => {
    const projectId = await createProject(client.id);
    await seedThread(projectId, 250, 40);
    const { pages, hasMore } = await readAllPages(projectId);
    expect(pages.map((p) => p.length)).toEqual([THREAD_PAGE_SIZE_DEFAULT, THREAD_PAGE_SIZE_DEFAULT, 50]);
    expect(hasMore).toEqual([true, true, false]);
    const all = joined(pages);
    expect(new Set(all.map((m) => m._id)).size).toBe(250);
    // Oldest first within and across pages, in the thread's order (time, then id).
    for (let i = 1; i < all.length; i++) expect(compareThreadPosition(all[i - 1], all[i])).toBeLessThan(0);
    // Groups of equal time come out whole and in time order; within a group the id decides.
    const groupOf = (m: Message) => Math.floor(Number(m.text.replace('Seeded ', '')) / 40);
    expect(all.map(groupOf)).toEqual([...all.map(groupOf)].sort((a, b) => a - b));
    expect(pages[0].every((m) => groupOf(m) >= 3)).toBe(true);
  });

  it('gives the same thread whatever the page size, even when a page boundary falls inside a group of equal timestamps', async () => {
    const projectId = await createProject(client.id);
    await seedThread(projectId, 60, 25);
    const whole = joined((await readAllPages(projectId, THREAD_PAGE_SIZE_MAX)).pages).map((m) => m._id);
    expect(whole).toHaveLength(60);
    for (const limit of [1, 7, 25, 59, 60]) {
      const { pages } = await readAllPages(projectId, limit);
      expect(joined(pages).map((m) => m._id), `page size ${limit}`).toEqual(whole);
    }
  });

  it('keeps rows with microsecond times in order: pages compare at the millisecond the cursor carries', async () => {
    const projectId = await createProject(client.id);
    const base = t.clock.now().toISOString();
    // Written outside the app (a script, an import): several rows inside one millisecond.
    await t.database.db.execute(sql`
      insert into messages (project_id, sender_id, subject, text, created_at)
      select ${projectId}::uuid, ${client.id}::uuid, '', 'micro ' || n, ${base}::timestamptz + (n * interval '1 microsecond')
      from generate_series(1, 12) as n`);
    t.clock.advance(1000);
    const { pages } = await readAllPages(projectId, 5);
    const texts = joined(pages).map((m) => m.text);
    expect(texts).toHaveLength(12);
    expect(new Set(texts).size).toBe(12);
  });

  it('says hasMore false when the thread fits exactly in one page', async () => {
    const projectId = await createProject(client.id);
    await seedThread(projectId, THREAD_PAGE_SIZE_DEFAULT, 10);
    const res = await page(clientAuth, projectId);
    expect(res.json()).toMatchObject({ success: true, hasMore: false });
    expect(res.json().messages).toHaveLength(THREAD_PAGE_SIZE_DEFAULT);
    const empty = await page(clientAuth, await createProject(client.id));
    expect(empty.json()).toEqual({ success: true, messages: [], hasMore: false, olderUnread: 0 });
  });

  it('counts, for each reader, the unread messages older than the page, so a badge can include what is not loaded', async () => {
    const projectId = await createProject(client.id);
    // 150 messages: every third from staff to the client, the rest from the client to staff; none read.
    await seedThread(projectId, 150, 10);
    const unreadForClient = (ms: Message[]) => ms.filter((m) => m.senderId._id === admin.id && !m.isRead).length;
    const unreadForStaff = (ms: Message[]) => ms.filter((m) => m.senderId._id === client.id && !m.isRead).length;

    const first = (await page(clientAuth, projectId, '?limit=60')).json() as { messages: Message[]; hasMore: boolean; olderUnread: number };
    const staffFirst = (await page(adminAuth, projectId, '?limit=60')).json() as { messages: Message[]; olderUnread: number };
    const all = joined((await readAllPages(projectId)).pages);
    expect(all).toHaveLength(150);
    const older = all.slice(0, 90);
    expect(first.hasMore).toBe(true);
    expect(first.olderUnread).toBe(unreadForClient(older));
    expect(staffFirst.olderUnread).toBe(unreadForStaff(older));
    expect(first.olderUnread + unreadForClient(first.messages)).toBe(50);
    expect(staffFirst.olderUnread + unreadForStaff(staffFirst.messages)).toBe(100);

    // Reading one old message lowers the count for its receiver only.
    const oldFromStaff = older.find((m) => m.senderId._id === admin.id)!;
    const read = await t.app.inject({ method: 'PUT', url: `/api/messages/${oldFromStaff._id}/read`, headers: { cookie: clientAuth.cookie, origin: ORIGIN } });
    expect(read.statusCode).toBe(200);
    expect((await page(clientAuth, projectId, '?limit=60')).json().olderUnread).toBe(first.olderUnread - 1);
    expect((await page(adminAuth, projectId, '?limit=60')).json().olderUnread).toBe(staffFirst.olderUnread);

    // The last page has nothing older.
    const last = await page(clientAuth, projectId, `?before=${encodeURIComponent(threadCursor(all[30]))}&limit=60`);
    expect(last.json()).toMatchObject({ hasMore: false, olderUnread: 0 });
  });

  it('lists, after a new message, the same earlier page for the same cursor (new messages never shift older pages)', async () => {
    const projectId = await createProject(client.id);
    await seedThread(projectId, 30, 30);
    const first = (await page(clientAuth, projectId, '?limit=10')).json().messages as Message[];
    const cursor = threadCursor(first[0]);
    const before = (await page(clientAuth, projectId, `?limit=10&before=${encodeURIComponent(cursor)}`)).json().messages;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { cookie: adminAuth.cookie, origin: ORIGIN },
      payload: { text: 'A new one', projectId },
    });
    expect(sent.statusCode).toBe(201);
    const after = (await page(clientAuth, projectId, `?limit=10&before=${encodeURIComponent(cursor)}`)).json().messages;
    expect(after).toEqual(before);
  });

  it("hides another client's thread behind 404 with or without a cursor, exactly like a missing project", async () => {
    const projectId = await createProject(client.id);
    await seedThread(projectId, 5, 5);
    const own = (await page(clientAuth, projectId)).json().messages as Message[];
    const cursor = encodeURIComponent(threadCursor(own.at(-1)!));
    for (const query of ['', `?before=${cursor}`, `?before=${cursor}&limit=2`]) {
      const foreign = await page(otherAuth, projectId, query);
      const missing = await page(otherAuth, MISSING, query);
      expect(foreign.statusCode, query).toBe(404);
      expect(missing.statusCode, query).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
    }
    // The owner and staff read the page before that cursor.
    expect((await page(clientAuth, projectId, `?before=${cursor}`)).json().messages).toHaveLength(4);
    expect((await page(adminAuth, projectId, `?before=${cursor}`)).json().messages).toHaveLength(4);
  });

  it('refuses an invalid cursor or page size with 400 in the one error shape', async () => {
    const projectId = await createProject(client.id);
    const id = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
    for (const query of [
      '?before=yesterday',
      `?before=${id}`,
      `?before=2026-11-22T09:00:00.000Z`,
      `?before=2026-02-30T09:00:00.000Z_${id}`,
      `?before=2026-11-22T09:00:00Z_${id}`,
      `?before=2026-11-22T09:00:00.000Z_not-a-uuid`,
      `?before=2026-11-22T09:00:00.000Z_${id}x`,
      '?limit=0',
      `?limit=${THREAD_PAGE_SIZE_MAX + 1}`,
      '?limit=ten',
    ]) {
      const res = await page(clientAuth, projectId, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ success: false, code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    const fine = await page(clientAuth, projectId, `?before=${encodeURIComponent(`2026-11-22T09:00:00.000Z_${id}`)}&limit=${THREAD_PAGE_SIZE_MAX}`);
    expect(fine.statusCode).toBe(200);
  });
});
