import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { users } from '../../db/schema/users.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, type Actor } from '../../../tests/helpers/portal.ts';

// Issue 22: staff correct a client (name, e-mail address, username, status) with creation's rules.

let t: TestApp;
let admin: Actor;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin');
});
afterAll(() => t?.close());

async function newClient(name = 'Emeka Nwankwo') {
  const n = ++seq;
  const res = await t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload: { name, email: `client${n}@example.test`, username: `edit.client${n}` } });
  expect(res.statusCode).toBe(201);
  return res.json() as { client: { _id: string; email: string; username: string }; invitationUrl: string };
}
const patch = (id: string, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'PATCH', url: `/api/users/clients/${id}`, headers, payload: payload as object });
const row = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0];
const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');
const inspect = (url: string) => t.app.inject({ method: 'POST', url: '/api/auth/invitation/inspect', payload: { token: tokenOf(url) } });

describe('PATCH /api/users/clients/:id', () => {
  it('changes each named field and leaves the others as they were', async () => {
    const { client } = await newClient();
    const res = await patch(client._id, { name: 'Emeka Nwankwo-Obi', status: 'in-progress' });
    expect(res.statusCode).toBe(200);
    expect(res.json().client).toMatchObject({ _id: client._id, name: 'Emeka Nwankwo-Obi', status: 'in-progress', email: client.email, username: client.username });
    const all = await t.app.inject({ method: 'GET', url: '/api/users/clients?pageSize=100', headers: admin.headers });
    expect(all.json().clients.find((c: { _id: string }) => c._id === client._id)).toMatchObject({ name: 'Emeka Nwankwo-Obi', status: 'in-progress' });

    const second = await patch(client._id, { email: ' Emeka.New@Example.TEST ', username: 'Emeka.N' });
    expect(second.statusCode).toBe(200);
    // Normalised as at creation: trimmed, lower case.
    expect(second.json().client).toMatchObject({ name: 'Emeka Nwankwo-Obi', email: 'emeka.new@example.test', username: 'emeka.n', status: 'in-progress' });
  });

  it.each([
    [{ name: '' }, 'body.name'],
    [{ name: 'A\nB' }, 'body.name'],
    [{ email: 'not-an-email' }, 'body.email'],
    [{ username: 'x' }, 'body.username'],
    [{ status: 'archived' }, 'body.status'],
    [{ role: 'admin' }, 'body'],
    [{}, 'body'],
  ])('refuses %j with 400 (%s) and stores nothing', async (payload, field) => {
    const { client } = await newClient();
    const before = await row(client._id);
    const res = await patch(client._id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await row(client._id)).toEqual(before);
  });

  it('refuses a taken username or address with the words of creation, and stores nothing', async () => {
    const a = await newClient();
    const b = await newClient();
    const before = await row(b.client._id);
    const username = await patch(b.client._id, { username: a.client.username.toUpperCase(), name: 'Changed' });
    expect(username.statusCode).toBe(409);
    expect(username.json()).toMatchObject({ code: 'CONFLICT', message: `The username ${a.client.username} is already taken` });
    const email = await patch(b.client._id, { email: a.client.email.toUpperCase(), name: 'Changed' });
    expect(email.statusCode).toBe(409);
    expect(email.json()).toMatchObject({ code: 'CONFLICT', message: 'An account with this e-mail address already exists' });
    expect(await row(b.client._id)).toEqual(before);
    // A client keeps its own username and address without a clash.
    expect((await patch(b.client._id, { username: b.client.username, email: b.client.email })).statusCode).toBe(200);
  });

  it('answers 404 for a missing id and for a staff account, 403 to a client', async () => {
    expect((await patch('00000000-0000-4000-8000-000000000000', { name: 'X' })).statusCode).toBe(404);
    expect((await patch(admin.id, { name: 'X' })).statusCode).toBe(404);
    const client = await actor(t, 'client');
    const res = await patch(client.id, { name: 'Self-renamed' }, client.headers);
    expect(res.statusCode).toBe(403);
    expect((await row(client.id)).name).toBe(client.name);
  });

  it('re-issues a pending invitation to the new address: the old link stops working, the new one is mailed and answered', async () => {
    const { client, invitationUrl } = await newClient('Funmi Adewale');
    expect((await inspect(invitationUrl)).statusCode).toBe(200);
    const res = await patch(client._id, { email: 'funmi.right@example.test' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.invitation.url).not.toBe(invitationUrl);
    expect(body.client).toMatchObject({ email: 'funmi.right@example.test', invitation: 'pending' });
    expect((await inspect(invitationUrl)).statusCode).toBe(404);
    expect((await inspect(body.invitation.url)).statusCode).toBe(200);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'funmi.right@example.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe('invitation');
    expect(mails[0].text).toContain(body.invitation.url);
  });

  it('re-issues a pending invitation when the username changes (the mail names it), not on a name or status change', async () => {
    const { client, invitationUrl } = await newClient();
    const renamed = await patch(client._id, { name: 'Other Name', status: 'completed' });
    expect(renamed.json().invitation).toBeUndefined();
    expect((await inspect(invitationUrl)).statusCode).toBe(200);
    const res = await patch(client._id, { username: `${client.username}.b` });
    expect(res.json().invitation.url).toBeDefined();
    expect((await inspect(invitationUrl)).statusCode).toBe(404);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email));
    expect(mails.at(-1)!.text).toContain(`${client.username}.b`);
  });

  it('sends no invitation when the client has set a password or the link was revoked', async () => {
    const accepted = await actor(t, 'client');
    const res = await patch(accepted.id, { email: `moved-${accepted.id.slice(0, 8)}@example.test` });
    expect(res.statusCode).toBe(200);
    expect(res.json().invitation).toBeUndefined();
    expect(res.json().client.invitation).toBe('accepted');

    const { client } = await newClient();
    await t.app.inject({ method: 'DELETE', url: `/api/auth/invitations/${client._id}`, headers: admin.headers });
    const revoked = await patch(client._id, { email: `fresh-${client._id.slice(0, 8)}@example.test` });
    expect(revoked.json().invitation).toBeUndefined();
    expect(revoked.json().client.invitation).toBe('none');
  });

  it('leaves one consistent row when two corrections arrive at once', async () => {
    const { client } = await newClient();
    const [a, b] = await Promise.all([
      patch(client._id, { name: 'First Writer', username: `${client.username}.one` }),
      patch(client._id, { name: 'Second Writer', username: `${client.username}.two` }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const stored = await row(client._id);
    // Whole corrections, never a mix of the two.
    expect([
      ['First Writer', `${client.username}.one`],
      ['Second Writer', `${client.username}.two`],
    ]).toContainEqual([stored.name, stored.username]);
  });
});
