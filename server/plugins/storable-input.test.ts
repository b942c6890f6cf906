import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../db/schema/contact.ts';
import { loginAttempts } from '../db/schema/auth.ts';
import { messages } from '../db/schema/messages.ts';
import { projects } from '../db/schema/projects.ts';
import { ganttCharts } from '../db/schema/timelines.ts';
import { users } from '../db/schema/users.ts';
import { vendorApplications } from '../db/schema/vendors.ts';
import { ACCOUNT_FAILURE_LIMIT } from '../modules/auth/login-attempts.service.ts';
import { formToken, multipartBody } from '../../tests/helpers/forms.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../tests/helpers/test-app.ts';
import { serializeErrorForLog, toApiError, UNSTORABLE_VALUE_MESSAGE } from './error-handler.ts';

// Decision 111: a NUL character or a lone UTF-16 surrogate anywhere in a request is a 400 naming the
// field, with nothing stored (it was a 500 from PostgreSQL before), on every route.

const ORIGIN = 'http://localhost:3000';
const NUL = 'bad\u0000text';
const LONE = 'bad\uD800text';

let t: TestApp;
let client: { id: string; username: string | null };
let clientAuth: { cookie: string };
let adminAuth: { cookie: string };
let projectId: string;
let ip = 1;
const nextIp = () => `192.0.2.${ip++}`;

beforeAll(async () => {
  t = await createTestApp();
  client = await createUser(t, { role: 'client' });
  clientAuth = await signIn(t, client, 'client');
  adminAuth = await signIn(t, await createUser(t, { role: 'admin' }), 'admin');
  const [p] = await t.database.db.insert(projects).values({ clientId: client.id, name: 'Text', code: 'TXT-1', createdAt: t.clock.now() }).returning({ id: projects.id });
  projectId = p.id;
});
afterAll(async () => t.close());

const rows = async (table: typeof contactMessages | typeof messages | typeof ganttCharts | typeof vendorApplications) =>
  (await t.database.db.select({ n: count() }).from(table))[0].n;

function expectRefused(res: { statusCode: number; json(): { code: string; message: string; details?: { field: string }[] } }, field: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.message.startsWith(`${field}: `)).toBe(true);
  expect(body.details?.map((d) => d.field)).toContain(field);
}

describe('text PostgreSQL cannot store', () => {
  it.each([
    ['name', NUL],
    ['message', NUL],
    ['company', LONE],
  ])('refuses the contact form with %s holding a bad character, storing nothing', async (field, value) => {
    const before = await rows(contactMessages);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: nextIp(),
      payload: { formToken: await formToken(t, 'contact'), homepageUrl: '', name: 'Ada', email: 'ada@example.test', message: 'Hello', [field]: value },
    });
    expectRefused(res, `body.${field}`);
    expect(await rows(contactMessages)).toBe(before);
  });

  it('refuses a vendor application with NUL in a multipart text field, storing nothing', async () => {
    const body = await multipartBody({ formToken: await formToken(t, 'vendor'), homepageUrl: '', companyName: NUL });
    const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: nextIp() });
    expectRefused(res, 'companyName');
    expect(await rows(vendorApplications)).toBe(0);
  });

  it.each([NUL, LONE])('refuses a message whose text holds %j, storing nothing', async (text) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: { ...clientAuth, origin: ORIGIN }, payload: { text, projectId } });
    expectRefused(res, 'body.text');
    expect(await rows(messages)).toBe(0);
  });

  it('refuses a timeline whose task name holds a lone surrogate, storing nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/gantt-charts',
      headers: { ...adminAuth, origin: ORIGIN },
      payload: { projectId, projectTitle: 'Plan', tasks: [{ task: 'Survey', month: '2026-05' }, { task: LONE, month: '2026-06' }] },
    });
    expectRefused(res, 'body.tasks.1.task');
    expect(await rows(ganttCharts)).toBe(0);
  });

  it('refuses a newsletter unsubscribe token with NUL, in the body and in the query string', async () => {
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe', payload: { token: NUL } }), 'body.token');
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe?token=ab%00cd' }), 'querystring.token');
  });

  it('refuses NUL in a query string and a route parameter', async () => {
    const query = await t.app.inject({ method: 'GET', url: `/api/messages/project/${projectId}?before=x%00y`, headers: clientAuth });
    expect(query.json().message).toBe('querystring.before: Text must not contain NUL characters');
    expectRefused(query, 'querystring.before');
    expectRefused(await t.app.inject({ method: 'GET', url: '/api/gantt-charts/project/abc%00def', headers: adminAuth }), 'params.projectId');
  });

  it('refuses a sign-in with NUL in the account name and still counts it against the limits', async () => {
    const address = nextIp();
    const username = client.username!;
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, remoteAddress: address, payload: { username: `${username}\u0000`, password: 'guess' } });
      expectRefused(res, 'body.username');
    }
    // The account shown in the audit with U+FFFD in place of the NUL; its failures count for that name.
    const audited = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.ip, address));
    expect(audited).toHaveLength(ACCOUNT_FAILURE_LIMIT);
    expect(audited.every((r) => r.result === 'wrong-password' && r.account === `${username}\uFFFD`.toLowerCase())).toBe(true);
    // The address has used 5 of its 30: a 6th bad-text attempt on that name is past the account limit.
    const limited = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, remoteAddress: address, payload: { username: `${username}\u0000`, password: 'guess' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('counts NUL guesses from one address like other failures: the address limit refuses the right password after', async () => {
    const address = nextIp();
    const fresh = await createUser(t, { role: 'client' });
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, remoteAddress: address, payload: { username: `guess-${i}\u0000`, password: 'x' } });
      expect(res.statusCode).toBe(400);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, remoteAddress: address, payload: { username: fresh.username, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(429);
  });
});

describe('the error handler behind the checks', () => {
  it("answers PostgreSQL's data errors (bad text, malformed values) with 400, not 500", async () => {
    for (const query of [sql`SELECT ${'a\u0000b'}::text`, sql`SELECT ${'not-a-uuid'}::uuid`, sql`SELECT ${'99999999999'}::int`]) {
      const error = await t.database.db.execute(query).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).not.toBeNull();
      expect(toApiError(error)).toEqual({ status: 400, body: { success: false, code: 'VALIDATION_FAILED', message: UNSTORABLE_VALUE_MESSAGE } });
    }
  });

  it('logs a failed query without its parameters', async () => {
    const secret = 'private message text 7f3a';
    const error = await t.database.db
      .insert(users)
      .values({ id: client.id, role: 'client', name: secret, email: `${secret.replace(/ /g, '')}@example.test` })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(error).not.toBeNull();
    // The raw error carries the parameters (what pino would have printed before)...
    expect(JSON.stringify({ message: (error as Error).message, params: (error as { params?: unknown }).params })).toContain(secret);
    // ...the logged form does not, but still says what failed.
    const logged = JSON.stringify(serializeErrorForLog(error));
    expect(logged).not.toContain(secret);
    expect(serializeErrorForLog(error).query).toContain('insert into "users"');
    expect(logged).toContain('23505');
  });
});
