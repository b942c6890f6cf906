import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createDatabase, type Database } from '../../db/client.ts';
import { projects } from '../../db/schema/projects.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import type { TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { openEventStream } from '../../../tests/helpers/event-stream.ts';
import { MESSAGE_EVENTS_CHANNEL } from '../../events/portal-events.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';
import { company } from '../../../common/content/company.ts';

// The CSRF check wants the origin of PUBLIC_URL.
const ORIGIN = 'https://portal.example';

let t: TestApp;
let smtp: TestSmtpServer;
let client: { id: string; name: string; email: string };
let other: { id: string };
let clientAuth: { cookie: string };
let otherAuth: { cookie: string };
let adminAuth: { cookie: string };
let projectId: string;
let otherProjectId: string;

beforeAll(async () => {
  ({ t, smtp } = await appWithSmtp({ STAFF_EMAIL: 'projects@company.example', PUBLIC_URL: 'https://portal.example' }));
  client = await createUser(t, { role: 'client', name: 'Bola Client', email: 'bola@client.example' });
  other = await createUser(t, { role: 'client' });
  const admin = await createUser(t, { role: 'admin', name: 'Tunde Staff' });
  clientAuth = await signIn(t, client, 'client');
  otherAuth = await signIn(t, other, 'client');
  adminAuth = await signIn(t, admin, 'admin');
  const [p] = await t.database.db.insert(projects).values({ clientId: client.id, name: 'Tank Farm Upgrade', code: 'LIVE-1', createdAt: t.clock.now() }).returning();
  const [q] = await t.database.db.insert(projects).values({ clientId: other.id, name: 'Someone Else', code: 'LIVE-2', createdAt: t.clock.now() }).returning();
  projectId = p.id;
  otherProjectId = q.id;
});

afterAll(() => t?.close());

const send = (app: App, auth: { cookie: string }, body: object) =>
  app.inject({ method: 'POST', url: '/api/messages', headers: { cookie: auth.cookie, origin: ORIGIN }, payload: body });

describe('notification mail', () => {
  it('mails the receiver once per thread per 15 minutes, with the subject and a link but not the text', async () => {
    smtp.clear();
    expect((await send(t.app, adminAuth, { subject: 'Subject: Revised schedule', text: 'SECRET-BODY the new dates are attached', projectId })).statusCode).toBe(201);
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes('bola@client.example'));
    expect(mail.subject).toBe('New message about Tank Farm Upgrade');
    expect(mail.text).toContain('Revised schedule');
    // The staff member who wrote is named, not only the team (decision 281).
    expect(mail.text).toContain(`Tunde Staff of the ${company.shortName} team sent a new message about the project "Tank Farm Upgrade"`);
    expect(mail.text).toContain('https://portal.example/s/client/dashboard');
    expect(mail.text).not.toContain('SECRET-BODY');
    expect(mail.html).not.toContain('SECRET-BODY');

    // A second message within 15 minutes sends no mail; after them, the next one does.
    t.clock.advance(14 * 60_000);
    await send(t.app, adminAuth, { subject: 'Follow-up', text: 'Another one', projectId });
    t.clock.advance(2 * 60_000);
    await send(t.app, adminAuth, { subject: 'Third', text: 'And again', projectId });
    await smtp.waitForMail((m) => m.text.includes('Third'));
    expect(smtp.messages.filter((m) => m.envelopeTo.includes('bola@client.example')).map((m) => m.text.includes('Follow-up'))).toEqual([false, false]);
  });

  it("mails the company's inbox about a client's message, with a link to the admin dashboard", async () => {
    smtp.clear();
    await send(t.app, clientAuth, { subject: 'Invoice question', text: 'PRIVATE client words', projectId });
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes('projects@company.example'));
    expect(mail.text).toContain('Bola Client sent a new message about the project "Tank Farm Upgrade"');
    expect(mail.text).toContain('Invoice question');
    expect(mail.text).toContain('https://portal.example/secured/v1/admin');
    expect(mail.text).not.toContain('PRIVATE');
  });
});

describe('live stream', () => {
  let base: string;
  let second: { app: App; database: Database };

  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Another server process on the same database, as behind a load balancer.
    const database = createDatabase(t.databaseUrl, { max: 2 });
    const app = await buildApp({ config: t.config, database, logger: false, clock: t.clock });
    await app.ready();
    second = { app, database };
  });

  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it('refuses the stream without a session', async () => {
    const res = await fetch(`${base}/api/messages/stream`);
    expect(res.status).toBe(401);
  });

  it('delivers a message sent through another server process, and its read receipt', async () => {
    const stream = await openEventStream(base, clientAuth.cookie);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await stream.waitFor((e) => e.event === 'ready');
    const sent = await send(second.app, adminAuth, { text: 'Sent from the other process', projectId });
    const messageId = sent.json().message._id;
    const created = await stream.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'message.created');
    expect(created.data).toEqual({ type: 'message.created', projectId, clientId: client.id, messageId });
    await second.app.inject({ method: 'PUT', url: `/api/messages/${messageId}/read`, headers: { cookie: clientAuth.cookie, origin: ORIGIN } });
    await stream.waitFor((e) => e.event === 'message' && (e.data as { type: string }).type === 'message.read');
    await stream.close();
  });

  it("tells a client nothing about another client's projects; staff hear of every project", async () => {
    const clientStream = await openEventStream(base, clientAuth.cookie);
    const staffStream = await openEventStream(base, adminAuth.cookie);
    await clientStream.waitFor((e) => e.event === 'ready');
    await staffStream.waitFor((e) => e.event === 'ready');
    await send(second.app, otherAuth, { text: 'Private to the other client', projectId: otherProjectId });
    await staffStream.waitFor((e) => e.event === 'message' && (e.data as { projectId: string }).projectId === otherProjectId);
    // A raw NOTIFY from an unrelated connection travels the same way: the client's stream is still open and filtered.
    const raw = new pg.Client({ connectionString: t.databaseUrl });
    await raw.connect();
    await raw.query('select pg_notify($1, $2)', [
      MESSAGE_EVENTS_CHANNEL,
      JSON.stringify({ type: 'message.created', projectId, clientId: client.id, messageId: '00000000-0000-4000-8000-000000000001' }),
    ]);
    await raw.end();
    await clientStream.waitFor((e) => e.event === 'message' && (e.data as { messageId: string }).messageId.endsWith('0001'));
    expect(clientStream.events.some((e) => e.event === 'message' && (e.data as { projectId: string }).projectId === otherProjectId)).toBe(false);
    await clientStream.close();
    await staffStream.close();
  });
});
