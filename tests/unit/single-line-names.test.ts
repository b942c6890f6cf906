import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_CATEGORIES } from '../../common/schemas/blog.ts';
import { blogPosts } from '../../server/db/schema/blog.ts';
import { contactMessages } from '../../server/db/schema/contact.ts';
import { messages } from '../../server/db/schema/messages.ts';
import { newsletterIssues } from '../../server/db/schema/newsletter.ts';
import { projects } from '../../server/db/schema/projects.ts';
import { progressReports as reports } from '../../server/db/schema/reports.ts';
import { ganttCharts } from '../../server/db/schema/timelines.ts';
import { users } from '../../server/db/schema/users.ts';
import { vendorApplications } from '../../server/db/schema/vendors.ts';
import { createAdminAccount } from '../../server/modules/auth/admin-accounts.service.ts';
import { formToken, multipartBody } from '../helpers/forms.ts';
import { multipart, type Actor } from '../helpers/portal.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { appWithProject } from '../helpers/actors.ts';
import { VENDOR_REQUIRED_FIELDS } from '../helpers/vendor-fields.ts';

// Decision 195: a name or title holding a right-to-left override, an isolate, a direction mark, a
// zero-width or other invisible character, or a line break is a 400 naming the field and the
// character, with nothing stored, on every route that takes one (before, each was stored as sent).

const RLO = 'Acme\u202Egnp.exe';
const FOUND = /must not contain line breaks, invisible characters or text-direction controls \(found U\+202E\)/;

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let ip = 1;
const nextIp = () => `192.0.2.${ip++}`;
beforeAll(async () => ({ t, admin, client, project } = await appWithProject('Names')));
afterAll(() => t?.close());

type Table = typeof contactMessages | typeof vendorApplications | typeof users | typeof projects | typeof ganttCharts | typeof reports | typeof blogPosts | typeof newsletterIssues | typeof messages;
const rows = async (table: Table) => (await t.database.db.select({ n: count() }).from(table))[0].n;

function expectRefused(res: { statusCode: number; json(): { success: boolean; code: string; message: string } }) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(400);
  expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  expect(res.json().message).toMatch(FOUND);
}

describe('names and titles holding disguising characters', () => {
  it.each(['name', 'phone', 'company'])('public contact form: refuses %s, storing nothing', async (field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: nextIp(),
      payload: { formToken: await formToken(t, 'contact'), homepageUrl: '', name: 'Ada', email: 'ada@example.test', message: 'Hello', [field]: RLO },
    });
    expectRefused(res);
    expect(await rows(contactMessages)).toBe(0);
  });

  it('chat hand-off: refuses the name, storing nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chat/handoff',
      remoteAddress: nextIp(),
      payload: { formToken: await formToken(t, 'contact'), homepageUrl: '', name: '\u2066Ngozi\u2069', email: 'ngozi@example.test' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('(found U+2066)');
    expect(await rows(contactMessages)).toBe(0);
  });

  it.each(['companyName', 'contactPersonName', 'businessType', 'registrationNumber'])('public vendor form: refuses %s, storing nothing', async (field) => {
    const fields = {
      formToken: await formToken(t, 'vendor'),
      homepageUrl: '',
      ...VENDOR_REQUIRED_FIELDS,
      [field]: RLO,
    };
    const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...(await multipartBody(fields)), remoteAddress: nextIp() });
    expectRefused(res);
    expect(await rows(vendorApplications)).toBe(0);
  });

  it('staff: refuses a client name, storing no account', async () => {
    const before = await rows(users);
    const res = await t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload: { name: `Ada\u200B Obi`, email: 'ada.obi@example.test' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('(found U+200B)');
    expect(await rows(users)).toBe(before);
  });

  it('staff: refuses a project name and code, storing nothing', async () => {
    const before = await rows(projects);
    for (const payload of [
      { name: RLO, code: 'RLO-1' },
      { name: 'Yard', code: 'Y\u200E-1' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/projects', headers: admin.headers, payload: { ...payload, clientId: client.id, budget: '1000' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/must not contain line breaks, invisible characters or text-direction controls/);
    }
    expect(await rows(projects)).toBe(before);
  });

  it('staff: refuses a timeline title and a task name, storing nothing', async () => {
    for (const payload of [
      { projectTitle: RLO, tasks: [] },
      { projectTitle: 'Plan', tasks: [{ task: 'Survey', month: '2026-05' }, { task: `Pour\nDone: paid`, month: '2026-06' }] },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/gantt-charts', headers: admin.headers, payload: { projectId: project._id, ...payload } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/must not contain line breaks/);
    }
    expect(await rows(ganttCharts)).toBe(0);
  });

  it('staff: refuses a report whose project title holds an override, storing nothing', async () => {
    const body = await multipart({ date: '2026-11-20', projectId: project._id, projectCode: project.code, project: RLO, tasks: 'Dug', progress: 'Some' });
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expectRefused(res);
    expect(await rows(reports)).toBe(0);
  });

  it('staff: refuses a blog title and author, storing nothing', async () => {
    for (const payload of [
      { title: RLO, author: 'Ada' },
      { title: 'Yard news', author: 'A\uFEFFda' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/blog/posts',
        headers: admin.headers,
        payload: { ...payload, category: BLOG_CATEGORIES[0], excerpt: 'Short', content: 'Body' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/must not contain line breaks, invisible characters/);
    }
    expect(await rows(blogPosts)).toBe(0);
  });

  it('staff: refuses a newsletter subject, storing and sending nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/newsletter/issues', headers: admin.headers, payload: { subject: RLO, body: 'Hello', idempotencyKey: randomUUID() } });
    expectRefused(res);
    expect(await rows(newsletterIssues)).toBe(0);
  });

  it('portal: refuses a message subject, storing nothing; the message text keeps its direction marks', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: client.headers, payload: { subject: RLO, text: 'Hi', projectId: project._id } });
    expectRefused(res);
    expect(await rows(messages)).toBe(0);
    const text = 'سلام\u200F\nLine two';
    const ok = await t.app.inject({ method: 'POST', url: '/api/messages', headers: client.headers, payload: { subject: 'Hello', text, projectId: project._id } });
    expect(ok.statusCode).toBe(201);
    expect(await rows(messages)).toBe(1);
  });

  it('the admin account command: refuses the name, creating no account', async () => {
    await expect(createAdminAccount(t.app, { email: 'boss@example.test', name: 'Boss\u202E', password: 'correct horse battery staple 9' })).rejects.toThrow(FOUND);
    expect(await t.database.db.select().from(users).where(eq(users.email, 'boss@example.test'))).toEqual([]);
  });

  it('still stores names as languages write them', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: admin.headers,
      payload: { name: 'Adébáyọ̀ Ọlálékan — می\u200Cخواهم', code: 'LANG-1', clientId: client.id, budget: '1000' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
