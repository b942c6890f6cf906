import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { users } from '../../db/schema/users.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { settleAfterAnswer } from '../../lib/after-answer.ts';
import { createClientInvitation, generateUniqueUsername } from './invitations.service.ts';
import { isCommonPassword } from './passwords.ts';

const ORIGIN = 'http://localhost:3000';
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const NEW_PASSWORD = 'river bank at dawn 42';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8' });
});
afterAll(async () => t.close());

const post = (url: string, payload: object, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: extra.remoteAddress ?? '10.0.0.5', headers: { origin: ORIGIN, ...extra.headers } });

async function mailsTo(email: string, kind: string) {
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).then((rows) => rows.filter((r) => r.kind === kind));
}
const tokenIn = (text: string) => /#token=([A-Za-z0-9_-]+)/.exec(text)![1];

async function invitedClient(name = 'Chidi Nwosu') {
  const email = `chidi-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const username = await generateUniqueUsername(t.app, { name, email });
  const [row] = await t.database.db.insert(users).values({ role: 'client', name, email, username, createdAt: t.clock.now() }).returning();
  return row;
}

describe('client invitations', () => {
  it('mails a 7-day link naming the username; the link sets the password once', async () => {
    const client = await invitedClient();
    const { url, expiresAt } = await createClientInvitation(t.app, { userId: client.id });
    expect(url).toMatch(/^http:\/\/localhost:3000\/account\/set-password#token=[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime()).toBe(t.clock.now().getTime() + 7 * DAY);
    const [mail] = await mailsTo(client.email, 'invitation');
    expect(mail.text).toContain(url);
    expect(mail.text).toContain(`Your username: ${client.username}`);
    const token = tokenIn(url);

    const info = await post('/api/auth/invitation/inspect', { token });
    expect(info.json()).toMatchObject({ success: true, name: 'Chidi Nwosu', username: client.username });

    expect((await post('/api/auth/invitation/accept', { token, password: 'too short' })).statusCode).toBe(400);
    const common = await post('/api/auth/invitation/accept', { token, password: 'welcome12345' });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/too common/);
    const ownName = await post('/api/auth/invitation/accept', { token, password: client.email });
    expect(ownName.statusCode).toBe(400);

    const ok = await post('/api/auth/invitation/accept', { token, password: NEW_PASSWORD });
    expect(ok.json()).toEqual({ success: true, role: 'client', username: client.username });
    const login = await post('/api/auth/login', { username: client.username, password: NEW_PASSWORD });
    expect(login.statusCode).toBe(200);

    const reuse = await post('/api/auth/invitation/accept', { token, password: 'another good passphrase' });
    expect(reuse.statusCode).toBe(404);
    expect(reuse.json().message).toMatch(/no longer valid/);
    expect((await post('/api/auth/invitation/inspect', { token })).statusCode).toBe(404);
    // Once the client has a password, staff cannot re-invite (they reset instead).
    await expect(createClientInvitation(t.app, { userId: client.id })).rejects.toMatchObject({ status: 409 });
  });

  it('stops working after 7 days', async () => {
    const client = await invitedClient();
    const { url } = await createClientInvitation(t.app, { userId: client.id });
    t.clock.advance(7 * DAY - 1000);
    expect((await post('/api/auth/invitation/inspect', { token: tokenIn(url) })).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await post('/api/auth/invitation/accept', { token: tokenIn(url), password: NEW_PASSWORD })).statusCode).toBe(404);
  });

  it('lets staff resend (the old link dies), see the status, and revoke', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const { cookie } = await signIn(t, admin, 'admin');
    const staff = { cookie, origin: ORIGIN };
    const client = await invitedClient();
    const first = await createClientInvitation(t.app, { userId: client.id });
    const status = await t.app.inject({ method: 'GET', url: `/api/auth/invitations/${client.id}`, remoteAddress: '10.0.0.5', headers: staff });
    expect(status.json()).toMatchObject({ success: true, status: 'pending' });

    const resent = await t.app.inject({ method: 'POST', url: `/api/auth/invitations/${client.id}`, remoteAddress: '10.0.0.5', headers: staff });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().url).not.toBe(first.url);
    expect(await mailsTo(client.email, 'invitation')).toHaveLength(2);
    expect((await post('/api/auth/invitation/inspect', { token: tokenIn(first.url) })).statusCode).toBe(404);
    expect((await post('/api/auth/invitation/inspect', { token: tokenIn(resent.json().url) })).statusCode).toBe(200);

    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/auth/invitations/${client.id}`, remoteAddress: '10.0.0.5', headers: staff });
    expect(revoked.json()).toEqual({ success: true, revoked: true });
    expect((await post('/api/auth/invitation/accept', { token: tokenIn(resent.json().url), password: NEW_PASSWORD })).statusCode).toBe(404);
    const after = await t.app.inject({ method: 'GET', url: `/api/auth/invitations/${client.id}`, remoteAddress: '10.0.0.5', headers: staff });
    expect(after.json()).toMatchObject({ status: 'none', expiresAt: null });

    const missing = await t.app.inject({ method: 'POST', url: `/api/auth/invitations/${crypto.randomUUID()}`, remoteAddress: '10.0.0.5', headers: staff });
    expect(missing.statusCode).toBe(404);
    // An admin account is not a client: no invitation for it.
    expect((await t.app.inject({ method: 'POST', url: `/api/auth/invitations/${admin.id}`, remoteAddress: '10.0.0.5', headers: staff })).statusCode).toBe(404);
  });

  it('makes usernames unique from the name, e-mail or wanted one', async () => {
    const a = await generateUniqueUsername(t.app, { name: 'Ngozi Ádébáyọ̀', email: 'n@example.test' });
    expect(a).toBe('ngozi.adebayo');
    await t.database.db.insert(users).values({ role: 'client', name: 'N', email: 'n1@example.test', username: a, createdAt: t.clock.now() });
    expect(await generateUniqueUsername(t.app, { name: 'Ngozi Adebayo' })).toBe('ngozi.adebayo2');
    await t.database.db.insert(users).values({ role: 'client', name: 'N', email: 'n2@example.test', username: 'ngozi.adebayo2', createdAt: t.clock.now() });
    expect(await generateUniqueUsername(t.app, { name: 'NGOZI ADEBAYO' })).toBe('ngozi.adebayo3');
    expect(await generateUniqueUsername(t.app, { name: '李', email: 'li.wei@example.test' })).toBe('li.wei');
    expect(await generateUniqueUsername(t.app, { name: '--' })).toMatch(/^client/);
  });
});

describe('forgot password', () => {
  it('answers the same whether or not the account exists, and mails a link only to a real one', async () => {
    const client = await createUser(t, { role: 'client' });
    const real = await post('/api/auth/password/forgot', { identifier: client.username! });
    const ghost = await post('/api/auth/password/forgot', { identifier: 'ghost@example.test' });
    expect(real.statusCode).toBe(200);
    expect(real.body).toBe(ghost.body);
    // This app has no SMTP_URL: the answer promises no e-mail (issue 21; mail-truth.test.ts has the other case).
    expect(real.json().message).toMatch(/no reset link can reach you/);
    await settleAfterAnswer(t.app);
    const mails = await mailsTo(client.email, 'password-reset');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(/\/account\/reset-password#token=/);
    expect(await mailsTo('ghost@example.test', 'password-reset')).toHaveLength(0);
  });

  it('resets once within the hour and ends every session of the account', async () => {
    const client = await createUser(t, { role: 'client' });
    const session = await signIn(t, client, 'client');
    await post('/api/auth/password/forgot', { identifier: client.email.toUpperCase() });
    await settleAfterAnswer(t.app);
    const token = tokenIn((await mailsTo(client.email, 'password-reset'))[0].text);
    t.clock.advance(HOUR - 1000);
    const ok = await post('/api/auth/password/reset', { token, password: NEW_PASSWORD });
    expect(ok.json()).toEqual({ success: true, role: 'client', username: client.username });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: session.cookie } })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { username: client.username, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await post('/api/auth/login', { username: client.username, password: TEST_PASSWORD })).statusCode).toBe(401);
    const again = await post('/api/auth/password/reset', { token, password: 'yet another long passphrase' });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a reset link older than 1 hour, and keeps only the newest link', async () => {
    const client = await createUser(t, { role: 'client' });
    await post('/api/auth/password/forgot', { identifier: client.username! });
    await settleAfterAnswer(t.app);
    const first = tokenIn((await mailsTo(client.email, 'password-reset'))[0].text);
    t.clock.advance(1000);
    await post('/api/auth/password/forgot', { identifier: client.username! });
    await settleAfterAnswer(t.app);
    const second = tokenIn((await mailsTo(client.email, 'password-reset'))[0].text);
    expect(second).not.toBe(first);
    expect((await post('/api/auth/password/reset', { token: first, password: NEW_PASSWORD })).statusCode).toBe(404);
    t.clock.advance(HOUR);
    const expired = await post('/api/auth/password/reset', { token: second, password: NEW_PASSWORD });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toMatch(/1 hour/);
  });

  it('sends at most 3 reset mails an hour to one account', async () => {
    const client = await createUser(t, { role: 'client' });
    for (let i = 0; i < 5; i++) await post('/api/auth/password/forgot', { identifier: client.username! });
    await settleAfterAnswer(t.app);
    expect(await mailsTo(client.email, 'password-reset')).toHaveLength(3);
  });

  it("completes an admin's reset only from the admin networks", async () => {
    const admin = await createUser(t, { role: 'admin' });
    await post('/api/auth/password/forgot', { identifier: admin.email }, { remoteAddress: '203.0.113.5' });
    await settleAfterAnswer(t.app);
    const token = tokenIn((await mailsTo(admin.email, 'password-reset'))[0].text);
    const outside = await post('/api/auth/password/reset', { token, password: NEW_PASSWORD }, { remoteAddress: '203.0.113.5' });
    expect(outside.statusCode).toBe(403);
    const inside = await post('/api/auth/password/reset', { token, password: NEW_PASSWORD }, { remoteAddress: '10.1.1.1' });
    expect(inside.json()).toMatchObject({ success: true, role: 'admin' });
  });
});

describe('password rules', () => {
  it('knows the common passwords and trivial patterns', () => {
    expect(isCommonPassword('Password1234')).toBe(true);
    expect(isCommonPassword('QWERTYUIOP12')).toBe(true);
    expect(isCommonPassword('aaaaaaaaaaaaaaaa')).toBe(true);
    expect(isCommonPassword('abcabcabcabc')).toBe(true);
    expect(isCommonPassword('river bank at dawn 42')).toBe(false);
  });
});
