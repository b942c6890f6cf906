// What the speed work on messages (issue 15: the millisecond column and its index, the one-statement
// page and send) could break: the cursor at equal milliseconds and across pages, a page reading
// only its own rows, the limits under parallel sends, and the answers themselves.
import { startOfNextWindow as nextWindow } from '../../../tests/helpers/fake-clock.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePdf, samplePng } from '../../../tests/helpers/sample-files.ts';
import { rateLimitCounters } from '../../db/schema/form-guard.ts';
import { messageFiles, messages } from '../../db/schema/messages.ts';
import { compareThreadPosition, threadCursor, type Message } from '../../../common/schemas/messages.ts';
import { MESSAGE_RATE_LIMITS, RATE_LIMIT_TEXTS } from './messages.routes.ts';
import { threadPageStatement } from './message-thread.service.ts';
import { clientWithProject, type Actor } from '../../../tests/helpers/portal.ts';

const ORIGIN = 'http://localhost:3000';
const [PER_MINUTE, PER_HOUR] = MESSAGE_RATE_LIMITS;

let t: TestApp;
let admin: Actor;
let adminAuth: { cookie: string };

const person = () => clientWithProject(t, 'Speed');

const send = (auth: { cookie: string }, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/messages', headers: { cookie: auth.cookie, origin: ORIGIN }, payload });

const page = (auth: { cookie: string }, projectId: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/messages/project/${projectId}${query}`, headers: { cookie: auth.cookie } });

function upload(auth: { cookie: string }, file: { name: string; type: string; data: Buffer }) {
  const { payload, headers } = multipartBody({}, { filename: file.name, contentType: file.type, data: file.data });
  return t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...headers, cookie: auth.cookie, origin: ORIGIN }, payload });
}

/** Every page of a thread with the given page size, joined oldest first. */
async function wholeThread(auth: { cookie: string }, projectId: string, limit: number): Promise<Message[]> {
  const pages: Message[][] = [];
  let before: string | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const params = new URLSearchParams({ limit: String(limit) });
    if (before) params.set('before', before);
    const res = await page(auth, projectId, `?${params}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { messages: Message[]; hasMore: boolean };
    pages.unshift(body.messages);
    if (!body.hasMore) break;
    before = threadCursor(body.messages[0]);
  }
  return pages.flat();
}

const startOfNextWindow = (windowMs: number) => nextWindow(t.clock, windowMs);

const statuses = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});

beforeAll(async () => {
  ({ t, admin } = await appWithAdmin());
  adminAuth = admin.headers;
});
afterAll(() => t?.close());

describe('thread order after the millisecond column and its index', () => {
  it('pages through messages sent in the same millisecond without skipping or repeating one, at every page size', async () => {
    const ada = await person();
    startOfNextWindow(PER_MINUTE.windowMs);
    // The clock stands still: every message of the burst carries the same millisecond.
    const sent: Message[] = [];
    for (let i = 0; i < 9; i++) sent.push((await send(i % 3 ? ada.auth : adminAuth, { text: `Same instant ${i}`, projectId: ada.projectId })).json().message);
    expect(new Set(sent.map((m) => m.createdAt)).size).toBe(1);
    const expected = [...sent].sort(compareThreadPosition).map((m) => m._id);
    for (const limit of [1, 2, 4, 8, 9, 10]) {
      const thread = await wholeThread(ada.auth, ada.projectId, limit);
      expect(thread.map((m) => m._id), `page size ${limit}`).toEqual(expected);
    }
  });

  it('stores what is written outside the app at the millisecond the thread sorts on, and pages across millisecond boundaries', async () => {
    const bea = await person();
    const base = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000 + 1000).toISOString();
    // 30 rows 100 microseconds apart: three milliseconds' worth, several rows in each.
    await t.database.db.execute(sql`
      insert into messages (project_id, sender_id, subject, text, created_at)
      select ${bea.projectId}::uuid, ${bea.id}::uuid, '', 'micro ' || n, ${base}::timestamptz + (n * interval '100 microseconds')
      from generate_series(0, 29) as n`);
    const stored = await t.database.db.execute<{ exact: boolean }>(
      sql`select bool_and(created_at = date_trunc('milliseconds', created_at)) as exact from messages where project_id = ${bea.projectId}::uuid`,
    );
    expect(stored.rows[0].exact).toBe(true);
    const all = await wholeThread(adminAuth, bea.projectId, 200);
    expect(all).toHaveLength(30);
    for (const limit of [1, 3, 7, 11]) {
      expect((await wholeThread(adminAuth, bea.projectId, limit)).map((m) => m._id), `page size ${limit}`).toEqual(all.map((m) => m._id));
    }
    for (let i = 1; i < all.length; i++) expect(compareThreadPosition(all[i - 1], all[i])).toBeLessThan(0);
  });

  it('reads a page of a 3,000-message thread through the (project, created_at, id) index: only the rows of the page, no sort of the thread', async () => {
    const cy = await person();
    await t.database.db.execute(sql`
      insert into messages (project_id, sender_id, subject, text, created_at)
      select ${cy.projectId}::uuid, ${cy.id}::uuid, '', 'bulk ' || n, now() - (n * interval '1 second')
      from generate_series(1, 3000) as n`);
    await t.database.db.execute(sql`analyze messages`);
    const first = (await page(adminAuth, cy.projectId, '?limit=20')).json() as { messages: Message[]; hasMore: boolean };
    expect(first.messages).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const cursor = first.messages[0];
    const client = await t.database.pool.connect();
    try {
      const plan = await client.query<{ 'QUERY PLAN': unknown }>(`explain (analyze, format json) ${threadPageStatement({ _id: '', role: 'admin', staffRole: 'owner' }, true).text}`, [
        cy.projectId,
        21,
        new Date(cursor.createdAt),
        cursor._id,
      ]);
      type Node = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number; Plans?: Node[] };
      const nodes: Node[] = [];
      const walk = (n: Node) => {
        nodes.push(n);
        n.Plans?.forEach(walk);
      };
      walk((plan.rows[0]['QUERY PLAN'] as { Plan: Node }[])[0].Plan);
      const messageScans = nodes.filter((n) => n['Relation Name'] === 'messages');
      expect(messageScans).toHaveLength(1);
      expect(messageScans[0]['Index Name']).toBe('messages_project_created_id_idx');
      expect(messageScans[0]['Actual Rows']).toBe(21);
    } finally {
      client.release();
    }
  });
});

describe('sends in one statement', () => {
  it('answers a send exactly as the thread then lists the message, attachments in the order given', async () => {
    const dee = await person();
    const png = (await upload(dee.auth, { name: 'site photo.png', type: 'image/png', data: await samplePng() })).json().file;
    const pdf = (await upload(dee.auth, { name: 'drawing.pdf', type: 'application/pdf', data: samplePdf() })).json().file;
    const fromClient = await send(dee.auth, { subject: 'Subject: Roof', text: '  Two files  ', projectId: dee.projectId, attachments: [pdf, png.publicId] });
    expect(fromClient.statusCode).toBe(201);
    t.clock.advance(5);
    const fromStaff = await send(adminAuth, { text: 'Thanks', projectId: dee.projectId });
    expect(fromStaff.statusCode).toBe(201);
    const listed = (await page(dee.auth, dee.projectId)).json().messages as Message[];
    expect(listed).toEqual([fromClient.json().message, fromStaff.json().message]);
    expect(fromClient.json().message).toMatchObject({
      subject: 'Roof',
      text: 'Two files',
      receiverId: { _id: null },
      fromStaff: false,
      isRead: false,
      readAt: null,
      attachments: [
        { publicId: pdf.publicId, name: 'drawing.pdf', type: pdf.type },
        { publicId: png.publicId, name: 'site photo.png', type: png.type },
      ],
    });
    expect(fromStaff.json().message).toMatchObject({ receiverId: { _id: dee.id }, fromStaff: true, attachments: [] });
  });

  it('lets exactly one of parallel sends claim the same upload; the others store nothing', async () => {
    const eve = await person();
    const file = (await upload(eve.auth, { name: 'once.png', type: 'image/png', data: await samplePng() })).json().file;
    startOfNextWindow(PER_MINUTE.windowMs);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(eve.auth, { text: `Claim ${i}`, projectId: eve.projectId, attachments: [file.publicId] })),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 400: 5 });
    const [{ n }] = await t.database.db.select({ n: count() }).from(messages).where(eq(messages.projectId, eve.projectId));
    expect(n).toBe(1);
    const [row] = await t.database.db.select({ messageId: messageFiles.messageId }).from(messageFiles).where(eq(messageFiles.id, file.publicId));
    expect(row.messageId).toBe(responses.find((r) => r.statusCode === 201)!.json().message._id);
  });

  it('keeps the hour limit exact under parallel sends, and counts the hour only for sends the minute allowed', async () => {
    const fay = await person();
    startOfNextWindow(PER_HOUR.windowMs);
    const hourStart = t.clock.now();
    // As if 110 had been sent earlier this hour: 10 remain.
    await t.database.db.insert(rateLimitCounters).values({
      key: `${PER_HOUR.bucket}:${fay.id}`,
      windowStart: hourStart,
      count: PER_HOUR.limit - 10,
      expiresAt: new Date(hourStart.getTime() + PER_HOUR.windowMs),
    });
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => send(fay.auth, { text: `Burst ${i}`, projectId: fay.projectId })));
    expect(statuses(responses)).toEqual({ 201: 10, 429: 30 });
    // 10 refused by the minute (wait a minute), 20 by the hour (wait for the next hour).
    const refusals = responses.filter((r) => r.statusCode === 429);
    const byText = refusals.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.json().message]: (acc[r.json().message] ?? 0) + 1 }), {});
    expect(byText).toEqual({ [RATE_LIMIT_TEXTS.messages('a minute')]: 10, [RATE_LIMIT_TEXTS.messages('60 minutes')]: 20 });
    for (const r of refusals) expect(r.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(refusals.map((r) => Number(r.headers['retry-after'])).sort((a, b) => a - b)).toEqual([...Array(10).fill(60), ...Array(20).fill(3600)]);
    const [{ n }] = await t.database.db.select({ n: count() }).from(messages).where(eq(messages.projectId, fay.projectId));
    expect(n).toBe(10);
    const counter = async (rule: typeof PER_MINUTE) =>
      (
        await t.database.db
          .select({ count: rateLimitCounters.count })
          .from(rateLimitCounters)
          .where(and(eq(rateLimitCounters.key, `${rule.bucket}:${fay.id}`), eq(rateLimitCounters.windowStart, hourStart)))
      )[0].count;
    // Every send counted in the minute; only the 30 the minute allowed reached the hour.
    expect(await counter(PER_MINUTE)).toBe(40);
    expect(await counter(PER_HOUR)).toBe(PER_HOUR.limit - 10 + PER_MINUTE.limit);
  });
});
