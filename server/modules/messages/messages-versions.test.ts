import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import type { TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { messageVersions } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { MAIL_RETRY_BASE_MS, retryPendingMail } from '../../mail/mailer.ts';
import type { Message, MessageVersion } from '../../../common/schemas/messages.ts';

// Earlier versions of an edited message (GET /api/messages/{id}/versions, decision 259) and the
// notification mail read again at send time (decision 260). The fake clock moves the edit window and
// the mail retries; the fake SMTP server is where mail arrives.

const ORIGIN = 'http://localhost:3000';
type Auth = { cookie: string };

let t: TestApp;
let smtp: TestSmtpServer;
let adminAuth: Auth;
let clientAuth: Auth;
let otherAuth: Auth;
let clientId: string;
let seq = 0;

async function createProject(): Promise<string> {
  const [row] = await t.database.db.insert(projects).values({ clientId, name: `Versions ${++seq}`, code: `VER-${seq}`, createdAt: t.clock.now() }).returning({ id: projects.id });
  return row.id;
}

const headers = (auth: Auth) => ({ cookie: auth.cookie, origin: ORIGIN });

async function send(auth: Auth, projectId: string, body: { text: string; subject?: string }): Promise<Message> {
  const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: headers(auth), payload: { projectId, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().message;
}

async function edit(auth: Auth, id: string, payload: object): Promise<void> {
  const res = await t.app.inject({ method: 'PATCH', url: `/api/messages/${id}`, headers: headers(auth), payload });
  expect(res.statusCode, res.body).toBe(200);
}

const versions = (auth: Auth, id: string) => t.app.inject({ method: 'GET', url: `/api/messages/${id}/versions`, headers: { cookie: auth.cookie } });

/** The outbox row of the notification about a message, once its first (failed) delivery is over. */
async function notificationAfterFirstAttempt(messageId: string) {
  return vi.waitFor(async () => {
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.messageId, messageId));
    expect(row?.attempts).toBe(1);
    return row;
  });
}

/**
 * The mail of the tests before this one has had its first attempt (under load a delivery can still
 * be under way when the next test starts), so the failure set up next meets this test's own mail.
 */
async function earlierMailAttempted() {
  await vi.waitFor(
    async () => {
      const waiting = await t.database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(and(eq(mailOutbox.status, 'pending'), eq(mailOutbox.attempts, 0)));
      expect(waiting).toEqual([]);
    },
    { timeout: 15_000, interval: 50 },
  );
}

beforeAll(async () => {
  ({ t, smtp } = await appWithSmtp({ STAFF_EMAIL: 'projects@company.example' }));
  const admin = await createUser(t, { role: 'admin', name: 'Ngozi Staff' });
  const client = await createUser(t, { role: 'client', name: 'Amaka Client' });
  const other = await createUser(t, { role: 'client', name: 'Other Client' });
  clientId = client.id;
  adminAuth = await signIn(t, admin, 'admin');
  clientAuth = await signIn(t, client, 'client');
  otherAuth = await signIn(t, other, 'client');
});

afterAll(async () => {
  await t?.close();
});

describe('earlier versions of an edited message', () => {
  it('keeps each text an edit replaced, newest first, with when it was written and replaced', async () => {
    const projectId = await createProject();
    const sent = await send(clientAuth, projectId, { subject: 'Subject: Site vist', text: 'Can we vist on Monday?' });
    t.clock.advance(60_000);
    const firstEdit = t.clock.now().toISOString();
    await edit(clientAuth, sent._id, { subject: 'Subject: Site visit', text: 'Can we visit on Monday?' });
    t.clock.advance(60_000);
    const secondEdit = t.clock.now().toISOString();
    await edit(clientAuth, sent._id, { text: 'Can we visit on Tuesday?' });

    const res = await versions(adminAuth, sent._id);
    expect(res.statusCode, res.body).toBe(200);
    const list: MessageVersion[] = res.json().versions;
    expect(list).toEqual([
      { subject: 'Site visit', text: 'Can we visit on Monday?', writtenAt: firstEdit, replacedAt: secondEdit },
      { subject: 'Site vist', text: 'Can we vist on Monday?', writtenAt: sent.createdAt, replacedAt: firstEdit },
    ]);
  });

  it('answers an empty list for a message never edited, and 404 for a missing one', async () => {
    const sent = await send(adminAuth, await createProject(), { text: 'Delivery on Friday' });
    expect((await versions(adminAuth, sent._id)).json()).toEqual({ success: true, versions: [] });
    const missing = await versions(adminAuth, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false });
  });

  it('refuses every client, the author and another client alike, without saying anything of the text', async () => {
    const sent = await send(clientAuth, await createProject(), { text: 'Wrong figure: 12 tonnes' });
    await edit(clientAuth, sent._id, { text: 'Right figure: 21 tonnes' });
    for (const auth of [clientAuth, otherAuth]) {
      const res = await versions(auth, sent._id);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('12 tonnes');
    }
    expect((await versions({ cookie: '' }, sent._id)).statusCode).toBe(401);
  });

  it('goes with the message when its author removes it, and with its project when that is deleted with everything', async () => {
    const projectId = await createProject();
    const removed = await send(clientAuth, projectId, { text: 'Sent to the wrong project' });
    await edit(clientAuth, removed._id, { text: 'Still the wrong project' });
    const kept = await send(clientAuth, projectId, { text: 'Gate code 1234' });
    await edit(clientAuth, kept._id, { text: 'Gate code 4321' });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/messages/${removed._id}`, headers: headers(clientAuth) });
    expect(del.statusCode, del.body).toBe(200);
    expect(await t.database.db.select().from(messageVersions).where(eq(messageVersions.messageId, removed._id))).toEqual([]);
    expect((await versions(adminAuth, removed._id)).json().versions).toEqual([]);

    const name = `Versions ${seq}`;
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/projects/${projectId}`, headers: headers(adminAuth), payload: { confirmName: name } });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ deleted: { projects: 1, messages: 2, files: 0 } });
    expect(await t.database.db.select().from(messageVersions).where(eq(messageVersions.messageId, kept._id))).toEqual([]);
  });
});

describe('a queued notification is read again when it is sent', () => {
  it('drops the mail about a message removed before the retry; nothing reaches the SMTP server', async () => {
    t.clock.advance(20 * 60_000);
    await earlierMailAttempted();
    smtp.clear();
    smtp.failNext(1);
    const sent = await send(clientAuth, await createProject(), { subject: 'Subject: Private: wrong account number', text: 'Oops' });
    const row = await notificationAfterFirstAttempt(sent._id);
    expect(row.status).toBe('pending');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/messages/${sent._id}`, headers: headers(clientAuth) });
    expect(del.statusCode, del.body).toBe(200);

    t.clock.advance(MAIL_RETRY_BASE_MS);
    expect(await retryPendingMail(t.app)).toBe(0);
    const [after] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
    expect(after).toMatchObject({ status: 'dropped', nextAttemptAt: null });
    expect(smtp.messages.filter((m) => m.text.includes('wrong account number'))).toEqual([]);
  });

  it('sends the current subject of a message edited before the retry, and the outbox keeps what was sent', async () => {
    t.clock.advance(20 * 60_000);
    await earlierMailAttempted();
    smtp.clear();
    smtp.failNext(1);
    const sent = await send(clientAuth, await createProject(), { subject: 'Subject: Invoce 17', text: 'Please check' });
    const row = await notificationAfterFirstAttempt(sent._id);
    await edit(clientAuth, sent._id, { subject: 'Subject: Invoice 17', text: 'Please check it' });

    t.clock.advance(MAIL_RETRY_BASE_MS);
    expect(await retryPendingMail(t.app)).toBe(1);
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes('projects@company.example'));
    expect(mail.text).toContain('Invoice 17');
    expect(mail.text).not.toContain('Invoce');
    const [after] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
    expect(after.status).toBe('sent');
    expect(after.text).toContain('Invoice 17');
  });
});
