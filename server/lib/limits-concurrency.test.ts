import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../db/schema/contact.ts';
import { loginAttempts } from '../db/schema/auth.ts';
import { messages } from '../db/schema/messages.ts';
import { projects } from '../db/schema/projects.ts';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, FAILED_RESULTS } from '../modules/auth/login-attempts.service.ts';
import { base32Decode, totp } from '../modules/auth/totp.ts';
import { FORM_RATE_LIMITS } from './form-guard.ts';
import { hitRateLimit } from './rate-limit.ts';
import { MESSAGE_RATE_LIMITS } from '../modules/messages/messages.routes.ts';
import { formToken } from '../../tests/helpers/forms.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../tests/helpers/test-app.ts';

// Every limit holds under parallel requests (decision 110): the count and the check are one atomic
// step in PostgreSQL, so requests sent at the same instant cannot all slip in under the limit.

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_MFA_REQUIRED: 'true' });
});
afterAll(async () => t.close());

let addressCounter = 1;
const nextAddress = () => `203.0.113.${addressCounter++}`;

const login = (username: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, remoteAddress, payload: { username, password } });

const statuses = (responses: { statusCode: number }[]) => {
  const out: Record<number, number> = {};
  for (const r of responses) out[r.statusCode] = (out[r.statusCode] ?? 0) + 1;
  return out;
};

describe('sign-in limits under parallel requests', () => {
  it('checks at most 5 of 50 parallel guesses on one account, and the right password sent 50th does not sign in', async () => {
    const client = await createUser(t, { role: 'client' });
    const ip = nextAddress();
    const guesses = Array.from({ length: 50 }, (_, i) => (i === 49 ? TEST_PASSWORD : `wrong guess ${i}`));
    const responses = await Promise.all(guesses.map((p) => login(client.username!, p, ip)));
    expect(statuses(responses)).toEqual({ 401: ACCOUNT_FAILURE_LIMIT, 429: 50 - ACCOUNT_FAILURE_LIMIT });
    expect(responses[49].statusCode).toBe(429);
    const rows = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.account, client.username!.toLowerCase()));
    expect(rows.filter((r) => r.result === 'wrong-password')).toHaveLength(ACCOUNT_FAILURE_LIMIT);
    expect(rows.filter((r) => r.result === 'rate-limited')).toHaveLength(50 - ACCOUNT_FAILURE_LIMIT);
    expect(rows.filter((r) => r.result === 'success')).toHaveLength(0);
  });

  it('signs in when the right password is among the first parallel attempts: the reservation does not refuse the honest one', async () => {
    const client = await createUser(t, { role: 'client' });
    const ip = nextAddress();
    const responses = await Promise.all([login(client.username!, TEST_PASSWORD, ip), login(client.username!, 'wrong', ip), login(client.username!, 'wrong', ip)]);
    expect(responses[0].statusCode).toBe(200);
    expect(statuses(responses)).toEqual({ 200: 1, 401: 2 });
  });

  it('checks at most 30 of 60 parallel guesses from one address on 60 accounts', async () => {
    const ip = nextAddress();
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => login(`parallel-guess-${i}`, 'wrong guess', ip)));
    expect(statuses(responses)).toEqual({ 401: ADDRESS_FAILURE_LIMIT, 429: 60 - ADDRESS_FAILURE_LIMIT });
    const [{ n }] = await t.database.db
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.ip, ip), inArray(loginAttempts.result, FAILED_RESULTS)));
    expect(n).toBe(ADDRESS_FAILURE_LIMIT);
  });

  it('checks at most 5 of 40 parallel second-factor codes, and the right code sent 40th does not sign in', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const ip = nextAddress();
    const adminLogin = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, remoteAddress: ip, payload: { email: admin.email, password: TEST_PASSWORD } });
    // Enrol the authenticator first (required here), then sign in again to reach the code step.
    const first = (await adminLogin()).json();
    expect(first.mfa).toBe('enrol');
    const post = (url: string, token: string, payload?: object) =>
      t.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { cookie: `sid=${token}`, origin: ORIGIN }, ...(payload ? { payload } : {}) });
    const { secret } = (await post('/api/auth/mfa/enrolment', first.token)).json();
    expect((await post('/api/auth/mfa/enrolment/confirm', first.token, { code: totp(base32Decode(secret), t.clock.now().getTime()) })).statusCode).toBe(200);
    t.clock.advance(30_000);
    const pending = (await adminLogin()).json();
    expect(pending.mfa).toBe('verify');
    const right = totp(base32Decode(secret), t.clock.now().getTime());
    const wrong = right === '000000' ? '111111' : '000000';
    const codes = Array.from({ length: 40 }, (_, i) => (i === 39 ? right : wrong));
    const responses = await Promise.all(codes.map((code) => post('/api/auth/mfa/verify', pending.token, { code })));
    expect(statuses(responses)).toEqual({ 401: ACCOUNT_FAILURE_LIMIT, 429: 40 - ACCOUNT_FAILURE_LIMIT });
    expect(responses[39].statusCode).toBe(429);
    const rows = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.userId, admin.id));
    expect(rows.filter((r) => r.result === 'wrong-second-factor')).toHaveLength(ACCOUNT_FAILURE_LIMIT);
  });
});

describe('the rate-limit library and the limits built on it under parallel requests', () => {
  it('allows exactly the limit of 50 parallel hits', async () => {
    const rule = { bucket: 'parallel-test', limit: 7, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 50 }, () => hitRateLimit(t.app, rule, 'someone')));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
  });

  it('stores exactly 5 of 30 parallel contact messages from one address', async () => {
    const ip = nextAddress();
    const token = await formToken(t, 'contact');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/contact',
          remoteAddress: ip,
          payload: { formToken: token, homepageUrl: '', name: 'Parallel Sender', email: 'parallel@example.test', message: `Message ${i}` },
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: FORM_RATE_LIMITS.contact.limit, 429: 30 - FORM_RATE_LIMITS.contact.limit });
    const [{ n }] = await t.database.db.select({ n: count() }).from(contactMessages).where(eq(contactMessages.email, 'parallel@example.test'));
    expect(n).toBe(FORM_RATE_LIMITS.contact.limit);
  });

  it('stores exactly 30 of 45 parallel messages from one sender in a minute', async () => {
    const user = await createUser(t, { role: 'client' });
    const [p] = await t.database.db.insert(projects).values({ clientId: user.id, name: 'Parallel', code: 'PAR-1', createdAt: t.clock.now() }).returning({ id: projects.id });
    const { cookie } = await signIn(t, user, 'client');
    t.clock.set(new Date(Math.ceil((t.clock.now().getTime() + 1) / 3_600_000) * 3_600_000));
    const responses = await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/messages', headers: { cookie, origin: ORIGIN }, payload: { text: `Parallel ${i}`, projectId: p.id } }),
      ),
    );
    const perMinute = MESSAGE_RATE_LIMITS[0].limit;
    expect(statuses(responses)).toEqual({ 201: perMinute, 429: 45 - perMinute });
    const [{ n }] = await t.database.db.select({ n: count() }).from(messages).where(eq(messages.projectId, p.id));
    expect(n).toBe(perMinute);
  });
});
