import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../../tests/helpers/test-app.ts';
import { issueLinkToken, LINK_LIFETIME_MS } from './link-tokens.ts';

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const inspect = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/password/reset/inspect', headers: { origin: ORIGIN }, payload: { token } });
const NO_LONGER_VALID = /^This password reset link is no longer valid/;

describe('checking a reset link when its page opens', () => {
  it('answers a live link with its expiry, and a used, replaced or expired one with why it no longer works', async () => {
    const user = await createUser(t, { role: 'client' });
    const { token, expiresAt } = await issueLinkToken(t.app, user.id, 'password-reset');
    const live = await inspect(token);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ success: true, expiresAt: expiresAt.toISOString() });

    // Used: the reset succeeds once, then the link says it is no longer valid.
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password/reset', headers: { origin: ORIGIN }, payload: { token, password: 'a brand new river crossing' } });
    expect(reset.statusCode).toBe(200);
    const used = await inspect(token);
    expect(used.statusCode).toBe(404);
    expect(used.json()).toMatchObject({ success: false, message: expect.stringMatching(NO_LONGER_VALID) });

    // Replaced by a newer link, and expired.
    const older = await issueLinkToken(t.app, user.id, 'password-reset');
    const newer = await issueLinkToken(t.app, user.id, 'password-reset');
    expect((await inspect(older.token)).statusCode).toBe(404);
    t.clock.advance(LINK_LIFETIME_MS['password-reset'] + 1000);
    const expired = await inspect(newer.token);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toMatch(NO_LONGER_VALID);
  });

  it('does not use the link up: inspecting twice leaves it usable', async () => {
    const user = await createUser(t, { role: 'client' });
    const { token } = await issueLinkToken(t.app, user.id, 'password-reset');
    expect((await inspect(token)).statusCode).toBe(200);
    expect((await inspect(token)).statusCode).toBe(200);
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password/reset', headers: { origin: ORIGIN }, payload: { token, password: 'another long river crossing' } });
    expect(reset.statusCode).toBe(200);
  });

  it('refuses a malformed token with 400', async () => {
    const res = await inspect('short');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
  });
});
