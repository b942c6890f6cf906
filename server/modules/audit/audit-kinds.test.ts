import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import { reportOn, timelineOn } from '../../../tests/helpers/access-fixtures.ts';
import { multipart, type Actor } from '../../../tests/helpers/portal.ts';
import { TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import type { AccessFixtureContext } from '../../../tests/helpers/access-table.ts';

// Issue 23: reports, timelines, messages, blog posts and staff accounts each record their changes
// (audit.test.ts covers clients, projects and the log itself).

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
beforeAll(async () => {
  ({ t, admin, client, project } = await appWithProject('Kinds Wharf'));
  // Each change a second after the last, so 'newest' is never a tie on the fake clock.
  t.clock.advance(1000);
});
afterAll(() => t?.close());

const ctx = () => ({ t, admin }) as unknown as AccessFixtureContext;
const call = (who: Actor, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
const latest = async () => (await t.database.db.select().from(auditEvents).orderBy(desc(auditEvents.at), desc(auditEvents.id)).limit(1))[0];
async function expectLatest(action: string, fields: object) {
  const event = await latest();
  expect(event).toMatchObject({ action, ...fields });
  t.clock.advance(1000);
  return event;
}

describe('each kind of change writes its event', () => {
  it('reports: create and correct', async () => {
    const report = await reportOn(ctx(), project);
    await expectLatest('report.create', { entityId: report.id, projectId: project._id, actorId: admin.id, before: null, after: { tasks: 'Survey', images: 1 } });
    const body = await multipart({ progress: 'Half done', removeImages: report.imageId });
    const res = await t.app.inject({ method: 'PATCH', url: `/api/reports/${report.id}`, headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    await expectLatest('report.correct', { before: { progress: 'Started', removedImages: [] }, after: { progress: 'Half done', removedImages: ['site.png'] } });
  });

  it('timelines: create and update', async () => {
    const id = await timelineOn(ctx(), project._id);
    await expectLatest('timeline.create', { entityId: id, projectId: project._id, after: { projectTitle: 'Plan' } });
    expect((await call(admin, 'PUT', `/api/gantt-charts/${id}`, { projectTitle: 'Plan B', tasks: [{ task: 'Mobilise', month: '2026-12' }] })).statusCode).toBe(200);
    await expectLatest('timeline.update', { before: { projectTitle: 'Plan' }, after: { projectTitle: 'Plan B' } });
  });

  it('messages: send, edit and delete, by the client as actor', async () => {
    const sent = await call(client, 'POST', '/api/messages', { projectId: project._id, subject: 'Piles', text: 'When do they arrive?' });
    const id = sent.json().message._id;
    await expectLatest('message.send', { entityId: id, projectId: project._id, actorId: client.id, actorLabel: `client: ${client.name}`, after: { text: 'When do they arrive?' } });
    expect((await call(client, 'PATCH', `/api/messages/${id}`, { text: 'When do the piles arrive?' })).statusCode).toBe(200);
    await expectLatest('message.edit', { before: { text: 'When do they arrive?' }, after: { text: 'When do the piles arrive?' } });
    expect((await call(client, 'DELETE', `/api/messages/${id}`)).statusCode).toBe(200);
    await expectLatest('message.delete', { before: { text: 'When do the piles arrive?', subject: 'Piles' }, after: null });
  });

  it('blog posts: create, update, visibility and delete', async () => {
    const post = { title: 'New jetty piles', author: 'Site Team', category: 'Marine & Logistics', excerpt: 'Forty piles in a week.', content: '<p>We drove forty piles.</p>' };
    const created = await call(admin, 'POST', '/api/blog/posts', post);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().post._id;
    await expectLatest('blog.create', { entityId: id, projectId: null, after: { title: 'New jetty piles' } });
    expect((await call(admin, 'PUT', `/api/blog/posts/${id}`, { ...post, title: 'Forty jetty piles', version: 1 })).statusCode).toBe(200);
    const updated = await expectLatest('blog.update', { before: { title: 'New jetty piles' }, after: { title: 'Forty jetty piles' } });
    expect(Object.keys(updated.after!)).not.toContain('content');
    expect((await call(admin, 'PUT', `/api/blog/posts/${id}/visibility`, { visibility: 'hidden' })).statusCode).toBe(200);
    await expectLatest('blog.visibility', { after: { visibility: 'hidden' } });
    expect((await call(admin, 'DELETE', `/api/blog/posts/${id}`)).statusCode).toBe(200);
    await expectLatest('blog.delete', { before: { title: 'Forty jetty piles' }, after: null });
  });

  it('staff accounts: a password change is recorded without the password or its hash', async () => {
    const res = await call(admin, 'POST', '/api/auth/password/change', { currentPassword: TEST_PASSWORD, newPassword: 'a brand new staff passphrase' });
    expect(res.statusCode, res.body).toBe(200);
    const event = await expectLatest('staff.password', { entityId: admin.id, before: { passwordHash: '[redacted]' }, after: { passwordHash: '[redacted]' } });
    expect(JSON.stringify(event)).not.toMatch(/argon2|brand new/);
  });

  it('a refused change writes nothing', async () => {
    const before = await latest();
    expect((await call(admin, 'PUT', '/api/gantt-charts/00000000-0000-4000-8000-000000000000', { projectTitle: 'X', tasks: [] })).statusCode).toBe(404);
    expect((await call(admin, 'POST', '/api/auth/password/change', { currentPassword: 'wrong one', newPassword: 'another new passphrase' })).statusCode).toBe(400);
    expect((await latest()).id).toBe(before.id);
  });
});
