import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggestUsername } from '../../../common/schemas/clients.ts';
import { actor, type Actor } from '../../../tests/helpers/portal.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';

// Issue 21: a client's username comes from the client's name (a shared mailbox such as 'projects@'
// names nobody), is unique, and staff hear that a typed one is taken before they submit.

let t: TestApp;
let admin: Actor;
beforeAll(async () => ({ t, admin } = await appWithAdmin()));
afterAll(() => t?.close());

const check = (query: string, headers = admin.headers) => t.app.inject({ method: 'GET', url: `/api/users/clients/username-check?${query}`, headers });
const addClient = (payload: object) => t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload });

describe('the suggested client username', () => {
  it("comes from the client's name, not the part of the e-mail before the @", async () => {
    expect(suggestUsername('Rivers Marine Ltd')).toBe('rivers.marine.ltd');
    const created = await addClient({ name: 'Rivers Marine Ltd', email: 'projects@riversmarine.example' });
    expect(created.statusCode).toBe(201);
    expect(created.json().client.username).toBe('rivers.marine.ltd');
  });

  it('is a free one, and a taken one is reported as taken before submitting', async () => {
    const res = await check('name=Rivers%20Marine%20Ltd');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, username: null, available: null, suggestion: 'rivers.marine.ltd2' });

    const taken = await check('username=rivers.marine.ltd&name=Rivers%20Marine%20Ltd');
    expect(taken.json()).toEqual({ success: true, username: 'rivers.marine.ltd', available: false, suggestion: 'rivers.marine.ltd2' });
    const free = await check('username=delta.works&name=Rivers%20Marine%20Ltd');
    expect(free.json()).toMatchObject({ username: 'delta.works', available: true, suggestion: 'delta.works' });
    // Not a valid username at all: not available.
    expect((await check('username=ab')).json().available).toBe(false);
  });

  it('is still refused by the server when a duplicate is submitted', async () => {
    const dup = await addClient({ name: 'Another', email: 'another@example.test', username: 'rivers.marine.ltd' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ success: false, message: 'The username rivers.marine.ltd is already taken' });
  });

  it('is for staff only', async () => {
    const client = await actor(t, 'client');
    expect((await check('username=x', client.headers)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/clients/username-check?username=x' })).statusCode).toBe(401);
  });
});
