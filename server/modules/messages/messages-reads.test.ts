import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../../common/content/company.ts';
import type { Message } from '../../../common/schemas/messages.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import { createColleague, type Colleague } from '../../../tests/helpers/colleague.ts';
import { openEventStream } from '../../../tests/helpers/event-stream.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { markThreadRead } from './message-changes.service.ts';
import { listProjectMessages } from './message-thread.service.ts';
import { markMessageRead, unreadCounts } from './messages.service.ts';
import { messageNotificationMail } from './message-notifications.ts';

// Decision 281: a client's people each have their own reads (message_reads); staff keep the shared
// flag. The colleague is a second client person (tests/helpers/colleague.ts): without the
// organisation column on this branch, they reach the services with their organisation in the viewer.

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string };
let colleague: Colleague;

beforeAll(async () => {
  ({ t, admin, client, project } = await appWithProject('Jetty Repairs'));
  colleague = await createColleague(t, client, 'Chinedu Colleague');
});
afterAll(() => t?.close());

const send = async (who: Actor, text: string, projectId = project._id) => {
  t.clock.advance(1000);
  const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: who.headers, payload: { subject: 'Update', text, projectId } });
  expect(res.statusCode).toBe(201);
  return res.json().message as Message;
};
const api = async (who: Actor, method: 'GET' | 'PUT', url: string) => {
  const res = await t.app.inject({ method, url: `/api${url}`, headers: who.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const unreadOf = async (who: Actor) => (await api(who, 'GET', '/messages/unread')).byProject[project._id] ?? 0;
const colleagueUnread = async () => (await unreadCounts(t.app, colleague.viewer)).byProject[project._id] ?? 0;
const thread = async (who: Actor) => (await api(who, 'GET', `/messages/project/${project._id}`)).messages as Message[];
const readRows = async (messageId: string) =>
  (await t.database.pool.query<{ user_id: string }>('select user_id from message_reads where message_id = $1 order by read_at, user_id', [messageId])).rows.map((r) => r.user_id);

describe('per-person reads of staff messages', () => {
  it("gives each person of the client their own unread count: one reading does not clear the other's", async () => {
    const first = await send(admin, 'Piles arrive Monday');
    const second = await send(admin, 'Crane booked for Tuesday');
    const before = await unreadOf(client);
    expect(await colleagueUnread()).toBe(before);

    const marked = (await api(client, 'PUT', `/messages/${first._id}/read`)).message as Message;
    expect(marked.isRead).toBe(true);
    expect(await readRows(first._id)).toEqual([client.id]);
    expect(await unreadOf(client)).toBe(before - 1);
    // The colleague has not read it: their count and their view of the message stay as they were.
    expect(await colleagueUnread()).toBe(before);
    const seen = await listProjectMessages(t.app, colleague.viewer, project._id, { limit: 100 });
    expect(seen.messages.find((m) => m._id === first._id)?.isRead).toBe(false);

    t.clock.advance(1000);
    const theirs = await markMessageRead(t.app, colleague.viewer, first._id);
    expect(theirs.isRead).toBe(true);
    expect(theirs.readBy.map((p) => p.name)).toEqual([client.name, colleague.name]);
    expect(await colleagueUnread()).toBe(before - 1);

    // 'Mark all as read' by the colleague marks their own reads only.
    expect(await markThreadRead(t.app, colleague.viewer, project._id)).toBe(before - 1);
    expect(await colleagueUnread()).toBe(0);
    expect(await unreadOf(client)).toBe(before - 1);
    expect(await readRows(second._id)).toEqual([colleague.id]);
    expect((await thread(client)).find((m) => m._id === second._id)?.isRead).toBe(false);
    // A second 'Mark all' finds nothing left for them.
    expect(await markThreadRead(t.app, colleague.viewer, project._id)).toBe(0);
  });

  it("counts the colleague's unread older than a page as their own", async () => {
    await send(admin, 'Older one');
    await send(admin, 'Newer one');
    await api(client, 'PUT', `/messages/project/${project._id}/read`);
    const page = await listProjectMessages(t.app, colleague.viewer, project._id, { limit: 1 });
    expect(page.olderUnread).toBe((await colleagueUnread()) - 1);
    const mine = await api(client, 'GET', `/messages/project/${project._id}?limit=1`);
    expect(mine.olderUnread).toBe(0);
  });

  it("shows staff who of the client read a message, and keeps staff's own counters as they were", async () => {
    const question = await send(client, 'Can we move the pour?');
    const staffBefore = (await api(admin, 'GET', '/messages/unread')).total;
    const listed = async () => ((await api(admin, 'GET', '/users/clients')).clients as { _id: string; unreadCount: number }[]).find((c) => c._id === client.id)?.unreadCount;
    const clientsBefore = await listed();
    expect(staffBefore).toBeGreaterThan(0);
    expect(clientsBefore).toBe(1);

    const reply = await send(admin, 'Yes, Thursday');
    const staffView = () => thread(admin).then((all) => all.find((m) => m._id === reply._id)!);
    expect(await staffView()).toMatchObject({ isRead: false, readAt: null, readBy: [] });
    t.clock.advance(1000);
    await markMessageRead(t.app, colleague.viewer, reply._id);
    // Read by at least one person of the client: staff see 'Read', with who.
    const afterOne = await staffView();
    expect(afterOne.isRead).toBe(true);
    expect(afterOne.readBy.map((p) => p.name)).toEqual([colleague.name]);
    t.clock.advance(1000);
    await api(client, 'PUT', `/messages/${reply._id}/read`);
    expect((await staffView()).readBy.map((p) => p._id)).toEqual([colleague.id, client.id]);
    // The client's reads never touch what waits for staff.
    expect((await api(admin, 'GET', '/messages/unread')).total).toBe(staffBefore);
    expect(await listed()).toBe(clientsBefore);

    // Staff reading the client's message is the one shared flag, with no per-person row.
    await api(admin, 'PUT', `/messages/${question._id}/read`);
    expect((await api(admin, 'GET', '/messages/unread')).total).toBe(staffBefore - 1);
    expect(await listed()).toBe(0);
    expect(await readRows(question._id)).toEqual([]);
  });

  it('no longer counts a staff message its author removed', async () => {
    const oops = await send(admin, 'Wrong project, sorry');
    const before = await unreadOf(client);
    const colleagueBefore = await colleagueUnread();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/messages/${oops._id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(await unreadOf(client)).toBe(before - 1);
    expect(await colleagueUnread()).toBe(colleagueBefore - 1);
  });

  it("tells the reader's streams who read, so a colleague's badge knows it was not theirs", async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const mine = await openEventStream(base, client.headers.cookie);
    await mine.waitFor((e) => e.event === 'ready');
    const sent = await send(admin, 'Live receipt');
    await api(client, 'PUT', `/messages/${sent._id}/read`);
    const read = await mine.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'message.read');
    expect(read.data).toMatchObject({ projectId: project._id, clientId: client.id, messageId: sent._id, readerId: client.id });
    await api(client, 'PUT', `/messages/project/${project._id}/read`);
    await send(admin, 'Another');
    await api(client, 'PUT', `/messages/project/${project._id}/read`);
    const all = await mine.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'thread.read');
    expect(all.data).toMatchObject({ projectId: project._id, messageId: null, readerId: client.id });
    await mine.close();
  });
});

describe('messages name the person who wrote them', () => {
  it('answers sender with the name and side, staff with the company, beside the specification senderId', async () => {
    const fromStaff = await send(admin, 'From the site office');
    const fromClient = await send(client, 'From the client');
    for (const who of [admin, client]) {
      const all = await thread(who);
      const staffMessage = all.find((m) => m._id === fromStaff._id)!;
      const clientMessage = all.find((m) => m._id === fromClient._id)!;
      expect(staffMessage.senderId).toEqual({ _id: admin.id, name: admin.name });
      expect(staffMessage.sender).toEqual({ _id: admin.id, name: admin.name, role: 'admin', organisation: company.shortName });
      expect(clientMessage.sender).toEqual({ _id: client.id, name: client.name, role: 'client', organisation: null });
    }
    expect(fromStaff.sender.name).toBe(admin.name);
    const single = (await api(client, 'PUT', `/messages/${fromStaff._id}/read`)).message as Message;
    expect(single.sender).toEqual(fromStaff.sender);
  });

  it('names the writer in the notification mail: a staff member with the team, a client person with their client', () => {
    const facts = { projectName: 'Jetty Repairs', clientName: 'Amaka Client', clientEmail: 'amaka@example.test', subject: 'Update' };
    expect(messageNotificationMail(t.app, { ...facts, toStaff: true, senderName: 'Chinedu Colleague' }).text).toContain(
      'Chinedu Colleague of Amaka Client sent a new message about the project "Jetty Repairs"',
    );
    expect(messageNotificationMail(t.app, { ...facts, toStaff: true, senderName: 'Amaka Client' }).text).toContain('Amaka Client sent a new message');
    expect(messageNotificationMail(t.app, { ...facts, toStaff: false, senderName: 'Ngozi Staff' }).text).toContain(
      `Ngozi Staff of the ${company.shortName} team sent a new message about the project "Jetty Repairs"`,
    );
  });
});
