import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePng } from '../../../tests/helpers/sample-files.ts';
import { openEventStream } from '../../../tests/helpers/event-stream.ts';
import { messageFiles } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { MESSAGE_EDIT_WINDOW_MS, MESSAGE_TEXTS, type Message } from '../../../common/schemas/messages.ts';

// The author's corrections (PATCH/DELETE /api/messages/{id}) and 'Mark all as read'
// (PUT /api/messages/project/{projectId}/read), decision 244. The fake clock moves the 15 minutes.

const ORIGIN = 'http://localhost:3000';
type Auth = { cookie: string };

let t: TestApp;
let adminAuth: Auth;
let admin2Auth: Auth;
let clientAuth: Auth;
let otherAuth: Auth;
let projectId: string;
let otherProjectId: string;
let seq = 0;

async function createProject(clientId: string): Promise<string> {
  const [row] = await t.database.db.insert(projects).values({ clientId, name: `Changes ${++seq}`, code: `CHG-${seq}`, createdAt: t.clock.now() }).returning({ id: projects.id });
  return row.id;
}

const headers = (auth: Auth) => ({ cookie: auth.cookie, origin: ORIGIN });

async function send(auth: Auth, body: { text: string; subject?: string; projectId?: string; attachments?: string[] }): Promise<Message> {
  const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: headers(auth), payload: { projectId, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().message;
}

const edit = (auth: Auth, id: string, payload: object) => t.app.inject({ method: 'PATCH', url: `/api/messages/${id}`, headers: headers(auth), payload });
const remove = (auth: Auth, id: string) => t.app.inject({ method: 'DELETE', url: `/api/messages/${id}`, headers: headers(auth) });
const markAll = (auth: Auth, id = projectId) => t.app.inject({ method: 'PUT', url: `/api/messages/project/${id}/read`, headers: headers(auth) });

async function thread(auth: Auth, id = projectId): Promise<Message[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/messages/project/${id}`, headers: { cookie: auth.cookie } });
  return res.json().messages;
}

async function unread(auth: Auth): Promise<{ total: number; byProject: Record<string, number> }> {
  return (await t.app.inject({ method: 'GET', url: '/api/messages/unread', headers: { cookie: auth.cookie } })).json();
}

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t, { role: 'admin', name: 'Ngozi Staff' });
  const admin2 = await createUser(t, { role: 'admin', name: 'Tunde Staff' });
  const client = await createUser(t, { role: 'client', name: 'Amaka Client' });
  const other = await createUser(t, { role: 'client', name: 'Other Client' });
  adminAuth = await signIn(t, admin, 'admin');
  admin2Auth = await signIn(t, admin2, 'admin');
  clientAuth = await signIn(t, client, 'client');
  otherAuth = await signIn(t, other, 'client');
  projectId = await createProject(client.id);
  otherProjectId = await createProject(other.id);
});

afterAll(async () => {
  await t?.close();
});

describe('editing a message', () => {
  it('lets the author correct the text and subject; the thread shows the correction and when it was made', async () => {
    const sent = await send(clientAuth, { subject: 'Subject: Site vist', text: 'Can we vist on Monday?' });
    t.clock.advance(60_000);
    const res = await edit(clientAuth, sent._id, { subject: 'Subject: Site visit', text: '  Can we visit on Monday?  ' });
    expect(res.statusCode, res.body).toBe(200);
    const edited: Message = res.json().message;
    expect(edited).toMatchObject({ _id: sent._id, subject: 'Site visit', text: 'Can we visit on Monday?', editedAt: t.clock.now().toISOString(), deletedAt: null });
    expect(edited.createdAt).toBe(sent.createdAt);
    const seenByStaff = (await thread(adminAuth)).find((m) => m._id === sent._id);
    expect(seenByStaff).toMatchObject({ text: 'Can we visit on Monday?', editedAt: edited.editedAt });
    // Without a subject only the text changes.
    const again = await edit(clientAuth, sent._id, { text: 'Can we visit on Tuesday?' });
    expect(again.json().message).toMatchObject({ subject: 'Site visit', text: 'Can we visit on Tuesday?' });
  });

  it('refuses a blank or too long text with 400 and keeps the message as it was', async () => {
    const sent = await send(adminAuth, { text: 'Original words' });
    for (const payload of [{ text: '   ' }, { text: 'x'.repeat(10_001) }, { subject: 'two\nlines', text: 'ok' }, {}]) {
      const res = await edit(adminAuth, sent._id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    }
    expect((await thread(adminAuth)).find((m) => m._id === sent._id)).toMatchObject({ text: 'Original words', editedAt: null });
  });

  it("answers 403 to someone who sees the message but did not write it, 404 to another client and for a missing id", async () => {
    const staffMessage = await send(adminAuth, { text: 'From staff' });
    const clientMessage = await send(clientAuth, { text: 'From the client' });
    // Another admin, the client (its receiver) and staff on a client's message: visible, not theirs.
    for (const [auth, id] of [[admin2Auth, staffMessage._id], [clientAuth, staffMessage._id], [adminAuth, clientMessage._id]] as const) {
      const res = await edit(auth, id, { text: 'Hijacked' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: 'FORBIDDEN', message: MESSAGE_TEXTS.notAuthor });
      expect((await remove(auth, id)).statusCode).toBe(403);
    }
    const stranger = await edit(otherAuth, clientMessage._id, { text: 'Hijacked' });
    const missing = await edit(otherAuth, '00000000-0000-4000-8000-000000000000', { text: 'Hijacked' });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual(missing.json());
    expect((await remove(otherAuth, clientMessage._id)).statusCode).toBe(404);
    const texts = (await thread(adminAuth)).map((m) => m.text);
    expect(texts).toContain('From staff');
    expect(texts).toContain('From the client');
    expect(texts).not.toContain('Hijacked');
  });

  it('allows a change until 15 minutes after sending and refuses it with 409 from then on', async () => {
    const sent = await send(clientAuth, { text: 'Edge of the window' });
    t.clock.advance(MESSAGE_EDIT_WINDOW_MS - 1);
    expect((await edit(clientAuth, sent._id, { text: 'Just in time' })).statusCode).toBe(200);
    t.clock.advance(1);
    const late = await edit(clientAuth, sent._id, { text: 'Too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ success: false, code: 'CONFLICT', message: MESSAGE_TEXTS.editWindowOver });
    const lateDelete = await remove(clientAuth, sent._id);
    expect(lateDelete.statusCode).toBe(409);
    expect(lateDelete.json().message).toBe(MESSAGE_TEXTS.editWindowOver);
    expect((await thread(clientAuth)).find((m) => m._id === sent._id)).toMatchObject({ text: 'Just in time', deletedAt: null });
  });
});

describe('removing a message', () => {
  async function uploadPng(auth: Auth): Promise<string> {
    const { payload, headers: h } = multipartBody({}, { filename: 'site.png', contentType: 'image/png', data: await samplePng() });
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...h, ...headers(auth) }, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().file.publicId;
  }

  it("leaves 'This message was removed' in the thread and takes its attachments, rows and stored files", async () => {
    const fileId = await uploadPng(clientAuth);
    const sent = await send(clientAuth, { subject: 'Photos', text: 'See attached', attachments: [fileId] });
    const [row] = await t.database.db.select({ key: messageFiles.storageKey }).from(messageFiles).where(eq(messageFiles.id, fileId));
    expect(await t.app.storage.stat(row.key)).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: { cookie: adminAuth.cookie } })).statusCode).toBe(200);

    const res = await remove(clientAuth, sent._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatchObject({ _id: sent._id, subject: '', text: '', attachments: [], deletedAt: t.clock.now().toISOString() });
    const inThread = (await thread(adminAuth)).find((m) => m._id === sent._id);
    expect(inThread).toMatchObject({ text: '', attachments: [], deletedAt: expect.any(String) });
    expect(await t.database.db.select().from(messageFiles).where(eq(messageFiles.id, fileId))).toEqual([]);
    expect(await t.app.storage.stat(row.key)).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: { cookie: adminAuth.cookie } })).statusCode).toBe(404);
    // Removed is final: no second removal, no edit.
    expect((await remove(clientAuth, sent._id)).json()).toMatchObject({ code: 'CONFLICT', message: MESSAGE_TEXTS.alreadyRemoved });
    expect((await edit(clientAuth, sent._id, { text: 'Back again' })).statusCode).toBe(409);
  });

  it('takes a removed unread message out of the unread counts', async () => {
    const before = await unread(adminAuth);
    const waiting = await send(clientAuth, { text: 'Unread for staff' });
    expect((await unread(adminAuth)).total).toBe(before.total + 1);
    expect((await remove(clientAuth, waiting._id)).statusCode).toBe(200);
    const after = await unread(adminAuth);
    expect(after.total).toBe(before.total);
    expect(after.byProject[projectId] ?? 0).toBe(before.byProject[projectId] ?? 0);
  });

  it('removes exactly once when two tabs remove at the same moment, and an edit racing a removal never brings the text back', async () => {
    const sent = await send(clientAuth, { text: 'Double click' });
    const answers = await Promise.all([remove(clientAuth, sent._id), remove(clientAuth, sent._id), edit(clientAuth, sent._id, { text: 'Edited meanwhile' })]);
    const removals = answers.slice(0, 2).map((r) => r.statusCode).sort();
    expect(removals).toEqual([200, 409]);
    expect([200, 409]).toContain(answers[2].statusCode);
    expect((await thread(clientAuth)).find((m) => m._id === sent._id)).toMatchObject({ text: '', deletedAt: expect.any(String) });
  });
});

describe('mark all as read', () => {
  it("marks every message waiting for the caller in one request, and only the caller's side", async () => {
    const p = await createProject((await createUser(t, { role: 'client' })).id);
    const c = await createUser(t, { role: 'client', name: 'Reader Client' });
    const q = await createProject(c.id);
    const cAuth = await signIn(t, c, 'client');
    for (const text of ['one', 'two', 'three']) await send(adminAuth, { text, projectId: q });
    const fromClient = await send(cAuth, { text: 'for staff', projectId: q });
    const counts = await unread(cAuth);
    expect(counts.byProject[q]).toBe(3);
    const res = await markAll(cAuth, q);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, marked: 3 });
    expect((await unread(cAuth)).total).toBe(0);
    // The client's own message still waits for staff.
    expect((await thread(adminAuth, q)).find((m) => m._id === fromClient._id)?.isRead).toBe(false);
    // Nothing left: a second click marks nothing.
    expect((await markAll(cAuth, q)).json()).toEqual({ success: true, marked: 0 });
    // Staff read the client's side.
    expect((await markAll(adminAuth, q)).json()).toEqual({ success: true, marked: 1 });
    expect((await thread(cAuth, q)).find((m) => m._id === fromClient._id)?.isRead).toBe(true);
    // Another client's project, or one that does not exist: 404, nothing marked.
    expect((await markAll(otherAuth, q)).statusCode).toBe(404);
    expect((await markAll(otherAuth, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await markAll(cAuth, p)).statusCode).toBe(404);
    expect((await markAll(otherAuth, otherProjectId)).statusCode).toBe(200);
  });
});

describe('live', () => {
  it("tells open threads of an edit, a removal and a thread read, and another client nothing", async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const staff = await openEventStream(base, adminAuth.cookie);
    const stranger = await openEventStream(base, otherAuth.cookie);
    await staff.waitFor((e) => e.event === 'ready');
    await stranger.waitFor((e) => e.event === 'ready');
    const sent = await send(clientAuth, { text: 'Live one' });
    expect((await edit(clientAuth, sent._id, { text: 'Live one, corrected' })).statusCode).toBe(200);
    await staff.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'message.edited' && (e.data as { messageId: string }).messageId === sent._id);
    expect((await remove(clientAuth, sent._id)).statusCode).toBe(200);
    await staff.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'message.deleted' && (e.data as { messageId: string }).messageId === sent._id);
    await send(adminAuth, { text: 'Read me' });
    const client = await openEventStream(base, clientAuth.cookie);
    await client.waitFor((e) => e.event === 'ready');
    expect((await markAll(clientAuth)).statusCode).toBe(200);
    const read = await client.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'thread.read');
    expect(read.data).toMatchObject({ projectId, messageId: null });
    expect(stranger.events.some((e) => e.event === 'message' && (e.data as { projectId: string }).projectId === projectId)).toBe(false);
    await Promise.all([staff.close(), stranger.close(), client.close()]);
  });
});
