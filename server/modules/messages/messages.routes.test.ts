import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePdf, samplePng } from '../../../tests/helpers/sample-files.ts';
import { projects } from '../../db/schema/projects.ts';
import { company } from '../../../common/content/company.ts';
import type { Message } from '../../../common/schemas/messages.ts';

const ORIGIN = 'http://localhost:3000';

let t: TestApp;
let admin: { id: string; name: string };
let admin2: { id: string; name: string };
let client: { id: string; name: string };
let other: { id: string; name: string };
let adminAuth: { cookie: string };
let admin2Auth: { cookie: string };
let clientAuth: { cookie: string };
let otherAuth: { cookie: string };
let projectId: string;
let otherProjectId: string;
let codeSeq = 0;

async function createProject(clientId: string, name: string): Promise<string> {
  const [row] = await t.database.db
    .insert(projects)
    .values({ clientId, name, code: `MSG-${++codeSeq}-${Date.now()}`, createdAt: t.clock.now() })
    .returning({ id: projects.id });
  return row.id;
}

function send(auth: { cookie: string }, body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/messages', headers: { cookie: auth.cookie, origin: ORIGIN }, payload: body as object });
}

async function upload(auth: { cookie: string }, file: { name: string; type: string; data: Buffer }) {
  const { payload, headers } = multipartBody({}, { filename: file.name, contentType: file.type, data: file.data });
  return t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...headers, cookie: auth.cookie, origin: ORIGIN }, payload });
}

async function thread(auth: { cookie: string }, id = projectId) {
  return t.app.inject({ method: 'GET', url: `/api/messages/project/${id}`, headers: { cookie: auth.cookie } });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin', name: 'Ngozi Staff' });
  admin2 = await createUser(t, { role: 'admin', name: 'Tunde Staff' });
  client = await createUser(t, { role: 'client', name: 'Amaka Client' });
  other = await createUser(t, { role: 'client', name: 'Other Client' });
  adminAuth = await signIn(t, admin, 'admin');
  admin2Auth = await signIn(t, admin2, 'admin');
  clientAuth = await signIn(t, client, 'client');
  otherAuth = await signIn(t, other, 'client');
  projectId = await createProject(client.id, 'Jetty Rehabilitation');
  otherProjectId = await createProject(other.id, 'Other Pipeline');
});

afterAll(async () => {
  await t?.close();
});

describe('sending messages', () => {
  it("sends a client's message to the company, whatever sender and receiver the body names", async () => {
    const res = await send(clientAuth, {
      subject: 'Subject: Site access',
      text: '  Can we visit on Monday?  ',
      projectId,
      receiverId: other.id,
      senderId: admin.id,
    });
    expect(res.statusCode).toBe(201);
    const { message } = res.json() as { message: Message };
    expect(message).toMatchObject({
      subject: 'Site access',
      text: 'Can we visit on Monday?',
      senderId: { _id: client.id, name: 'Amaka Client' },
      receiverId: { _id: null, name: company.name },
      projectId,
      fromStaff: false,
      isRead: false,
      attachments: [],
    });
  });

  it("sends a staff message to the project's client, whatever receiver the body names", async () => {
    t.clock.advance(1000);
    const res = await send(adminAuth, { subject: 'Re: Site access', text: 'Monday works.', projectId, receiverId: other.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatchObject({
      senderId: { _id: admin.id, name: 'Ngozi Staff' },
      receiverId: { _id: client.id, name: 'Amaka Client' },
      fromStaff: true,
    });
  });

  it('refuses text that is blank after trimming', async () => {
    const res = await send(clientAuth, { subject: 'Empty', text: ' \n\t ', projectId });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Please enter a message');
  });

  it("hides another client's project behind 404 when sending", async () => {
    const res = await send(otherAuth, { text: 'Let me in', projectId });
    const missing = await send(otherAuth, { text: 'Let me in', projectId: '00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(res.json()).toEqual(missing.json());
  });

  it('refuses a request without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: { origin: ORIGIN }, payload: { text: 'hi', projectId } });
    expect(res.statusCode).toBe(401);
  });
});

describe('reading the thread', () => {
  it('lists the thread oldest first with sender and receiver names, to the client and to staff', async () => {
    const asClient = await thread(clientAuth);
    const asStaff = await thread(admin2Auth);
    expect(asClient.statusCode).toBe(200);
    const texts = (asClient.json().messages as Message[]).map((m) => [m.senderId.name, m.receiverId.name, m.text]);
    expect(texts).toEqual([
      ['Amaka Client', company.name, 'Can we visit on Monday?'],
      ['Ngozi Staff', 'Amaka Client', 'Monday works.'],
    ]);
    expect(asStaff.json().messages).toEqual(asClient.json().messages);
  });

  it("hides another client's thread behind 404, exactly like a missing project", async () => {
    const res = await thread(otherAuth);
    const missing = await thread(otherAuth, '00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(missing.json());
  });
});

describe('read receipts', () => {
  let fromClient: Message;
  let fromStaff: Message;

  beforeAll(async () => {
    t.clock.advance(1000);
    fromClient = (await send(clientAuth, { text: 'Please confirm the crane size', projectId })).json().message;
    t.clock.advance(1000);
    fromStaff = (await send(adminAuth, { text: 'A 50-tonne crane', projectId })).json().message;
  });

  const markRead = (auth: { cookie: string }, id: string) =>
    t.app.inject({ method: 'PUT', url: `/api/messages/${id}/read`, headers: { cookie: auth.cookie, origin: ORIGIN } });

  it('lets only the receiver mark a message read: the sender gets 403, another client 404', async () => {
    expect((await markRead(clientAuth, fromClient._id)).statusCode).toBe(403);
    expect((await markRead(adminAuth, fromStaff._id)).statusCode).toBe(403);
    const foreign = await markRead(otherAuth, fromStaff._id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual((await markRead(otherAuth, '00000000-0000-4000-8000-000000000000')).json());
    const res = await markRead(clientAuth, fromStaff._id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatchObject({ _id: fromStaff._id, isRead: true });
  });

  it("lets any admin mark a client's message to the company read, once", async () => {
    const first = await markRead(admin2Auth, fromClient._id);
    expect(first.statusCode).toBe(200);
    expect(first.json().message.isRead).toBe(true);
    const again = await markRead(adminAuth, fromClient._id);
    expect(again.statusCode).toBe(200);
    expect(again.json().message.readAt).toBe(first.json().message.readAt);
  });
});

describe('unread counts', () => {
  it("counts each client's unread messages in the staff's client list and in the unread summary", async () => {
    const fresh = await createUser(t, { role: 'client', name: 'Counting Client' });
    const freshAuth = await signIn(t, fresh, 'client');
    const p1 = await createProject(fresh.id, 'Count One');
    const p2 = await createProject(fresh.id, 'Count Two');
    const sent: Message[] = [];
    for (const [pid, text] of [
      [p1, 'one'],
      [p1, 'two'],
      [p2, 'three'],
    ]) {
      t.clock.advance(10);
      sent.push((await send(freshAuth, { text, projectId: pid })).json().message);
    }
    const listed = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/users/clients?pageSize=100', headers: { cookie: adminAuth.cookie } });
      expect(res.statusCode).toBe(200);
      return (res.json().clients as { _id: string; unreadCount: number }[]).find((c) => c._id === fresh.id)!.unreadCount;
    };
    expect(await listed()).toBe(3);
    const summary = await t.app.inject({ method: 'GET', url: '/api/messages/unread', headers: { cookie: adminAuth.cookie } });
    expect(summary.json().byProject).toMatchObject({ [p1]: 2, [p2]: 1 });
    await t.app.inject({ method: 'PUT', url: `/api/messages/${sent[0]._id}/read`, headers: { cookie: adminAuth.cookie, origin: ORIGIN } });
    expect(await listed()).toBe(2);

    // The client's own summary counts only what staff sent to it.
    t.clock.advance(10);
    await send(adminAuth, { text: 'Answer', projectId: p2 });
    const mine = await t.app.inject({ method: 'GET', url: '/api/messages/unread', headers: { cookie: freshAuth.cookie } });
    expect(mine.json()).toMatchObject({ total: 1, byProject: { [p2]: 1 } });
  });
});

describe('attachments on messages', () => {
  it('sends the uploads of the sender in the order given, and both sides can fetch them', async () => {
    const png = await samplePng();
    const img = (await upload(clientAuth, { name: 'site photo.png', type: 'image/png', data: png })).json().file;
    const pdf = (await upload(clientAuth, { name: 'drawing.pdf', type: 'application/pdf', data: samplePdf() })).json().file;
    t.clock.advance(1000);
    const res = await send(clientAuth, { text: 'Photos and drawing attached', projectId, attachments: [pdf, img.publicId] });
    expect(res.statusCode).toBe(201);
    const { message } = res.json() as { message: Message };
    expect(message.attachments.map((a) => [a.name, a.type, a.mimeType])).toEqual([
      ['drawing.pdf', 'document', 'application/pdf'],
      ['site photo.png', 'image', 'image/png'],
    ]);
    for (const auth of [clientAuth, admin2Auth]) {
      const file = await t.app.inject({ method: 'GET', url: img.url, headers: { cookie: auth.cookie } });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(png)).toBe(true);
    }
    const foreign = await t.app.inject({ method: 'GET', url: img.url, headers: { cookie: otherAuth.cookie } });
    expect(foreign.statusCode).toBe(404);
  });

  it("refuses someone else's upload, and an upload already sent", async () => {
    const mine = (await upload(otherAuth, { name: 'other.png', type: 'image/png', data: await samplePng() })).json().file;
    const stolen = await send(clientAuth, { text: 'Reusing', projectId, attachments: [mine] });
    expect(stolen.statusCode).toBe(400);
    // Staff cannot send a client's upload either.
    const byStaff = await send(adminAuth, { text: 'Reusing', projectId: otherProjectId, attachments: [mine] });
    expect(byStaff.statusCode).toBe(400);
    const sent = await send(otherAuth, { text: 'Mine', projectId: otherProjectId, attachments: [mine] });
    expect(sent.statusCode).toBe(201);
    const twice = await send(otherAuth, { text: 'Again', projectId: otherProjectId, attachments: [mine] });
    expect(twice.statusCode).toBe(400);
    // A refused message leaves nothing behind in the thread.
    const texts = ((await thread(otherAuth, otherProjectId)).json().messages as Message[]).map((m) => m.text);
    expect(texts).toEqual(['Mine']);
  });
});
