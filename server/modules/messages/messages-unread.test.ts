import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { appWithTwoClients } from '../../../tests/helpers/actors.ts';

let t: TestApp;
let admin: Actor;
let clientA: Actor;
let clientB: Actor;

beforeAll(async () => ({ t, admin, clientA, clientB } = await appWithTwoClients()));
afterAll(() => t?.close());

const send = async (who: Actor, projectId: string, text: string) => {
  t.clock.advance(1000);
  const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: who.headers, payload: { subject: 'Update', text, projectId } });
  expect(res.statusCode).toBe(201);
  return res.json().message._id as string;
};
const unread = async (who: Actor) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/messages/unread', headers: { cookie: who.headers.cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as { total: number; byProject: Record<string, number>; threads: { projectId: string; clientId: string; count: number }[] };
};

describe('unread summary for the badges and the next-unread jump', () => {
  it("lists staff's unread threads with their client, the one waiting longest first, and counts per project", async () => {
    const a1 = await createProjectVia(t, admin, clientA.id);
    const a2 = await createProjectVia(t, admin, clientA.id);
    const b1 = await createProjectVia(t, admin, clientB.id);
    await send(clientA, a2._id, 'first, oldest');
    const b1first = await send(clientB, b1._id, 'second');
    await send(clientA, a1._id, 'third');
    await send(clientA, a2._id, 'fourth');

    const staff = await unread(admin);
    expect(staff.total).toBe(4);
    expect(staff.byProject).toEqual({ [a2._id]: 2, [b1._id]: 1, [a1._id]: 1 });
    expect(staff.threads).toEqual([
      { projectId: a2._id, clientId: clientA.id, count: 2 },
      { projectId: b1._id, clientId: clientB.id, count: 1 },
      { projectId: a1._id, clientId: clientA.id, count: 1 },
    ]);

    // Reading a thread takes it off the list; the next one moves up.
    await t.app.inject({ method: 'PUT', url: `/api/messages/${b1first}/read`, headers: admin.headers });
    expect((await unread(admin)).threads.map((x) => x.projectId)).toEqual([a2._id, a1._id]);
  });

  it("gives a client its own unread per project only, never another client's threads", async () => {
    const a = await createProjectVia(t, admin, clientA.id);
    const b = await createProjectVia(t, admin, clientB.id);
    await send(admin, a._id, 'for A');
    await send(admin, a._id, 'for A again');
    await send(admin, b._id, 'for B');
    const mine = await unread(clientA);
    expect(mine.byProject[a._id]).toBe(2);
    expect(mine.byProject[b._id]).toBeUndefined();
    expect(mine.threads.every((x) => x.clientId === clientA.id)).toBe(true);
    expect(mine.total).toBe(Object.values(mine.byProject).reduce((s, n) => s + n, 0));
  });
});
