import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../common/schemas/clients.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, type Actor } from '../../../tests/helpers/portal.ts';
import { LINK_LIFETIME_MS } from '../auth/link-tokens.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';

// The clients list tells staff whether each client has set a password, without one call per client.

let t: TestApp;
let admin: Actor;

beforeAll(async () => ({ t, admin } = await appWithAdmin()));
afterAll(() => t?.close());

async function listed(id: string): Promise<Client> {
  const res = await t.app.inject({ method: 'GET', url: '/api/users/clients?pageSize=100', headers: admin.headers });
  expect(res.statusCode).toBe(200);
  const client = (res.json().clients as Client[]).find((c) => c._id === id);
  if (!client) throw new Error('client not listed');
  return client;
}

const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');
const call = (method: 'POST' | 'DELETE', id: string) => t.app.inject({ method, url: `/api/auth/invitations/${id}`, headers: admin.headers });

describe("a client's invitation in the clients list", () => {
  it('shows pending with its expiry, then none once revoked, pending again after a resend, and accepted once the password is set', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload: { name: 'Amaka Obi', email: 'amaka@example.test' } });
    expect(created.statusCode).toBe(201);
    const { client, invitationUrl } = created.json();
    const expected = new Date(t.clock.now().getTime() + LINK_LIFETIME_MS.invitation).toISOString();
    expect(client).toMatchObject({ invitation: 'pending', invitationExpiresAt: expected });
    expect(await listed(client._id)).toMatchObject({ invitation: 'pending', invitationExpiresAt: expected });

    const revoked = await call('DELETE', client._id);
    expect(revoked.json()).toEqual({ success: true, revoked: true });
    expect(await listed(client._id)).toMatchObject({ invitation: 'none', invitationExpiresAt: null });
    const revokedLink = await t.app.inject({ method: 'POST', url: '/api/auth/invitation/inspect', payload: { token: tokenOf(invitationUrl) } });
    expect(revokedLink.statusCode).toBe(404);

    t.clock.advance(60_000);
    const resent = await call('POST', client._id);
    expect(resent.statusCode).toBe(200);
    const { url } = resent.json();
    expect(url).not.toBe(invitationUrl);
    expect(await listed(client._id)).toMatchObject({
      invitation: 'pending',
      invitationExpiresAt: new Date(t.clock.now().getTime() + LINK_LIFETIME_MS.invitation).toISOString(),
    });

    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/invitation/accept',
      payload: { token: tokenOf(url), password: 'a long and unusual passphrase' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(await listed(client._id)).toMatchObject({ invitation: 'accepted', invitationExpiresAt: null });
    // A client with a password gets no new invitation (they use 'Forgot password?').
    expect((await call('POST', client._id)).statusCode).toBe(409);
  });

  it('answers the same state on a status change as in the list', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload: { name: 'Chioma Nwosu', email: 'chioma@example.test' } });
    const { client } = created.json();
    const res = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${client._id}/status`, headers: admin.headers, payload: { status: 'in-progress' } });
    expect(res.json().client).toMatchObject({ status: 'in-progress', invitation: 'pending', invitationExpiresAt: client.invitationExpiresAt });
  });

  it('shows none once the invitation has expired, and a new one can be sent', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload: { name: 'Bayo Adeyemi', email: 'bayo@example.test' } });
    const { client } = created.json();
    t.clock.advance(LINK_LIFETIME_MS.invitation + 1000);
    admin = await actor(t, 'admin'); // staff sessions last hours, not days
    expect(await listed(client._id)).toMatchObject({ invitation: 'none', invitationExpiresAt: null });
    expect((await call('POST', client._id)).statusCode).toBe(200);
    expect((await listed(client._id)).invitation).toBe('pending');
  });
});
