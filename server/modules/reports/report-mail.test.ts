import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { actor, createProjectVia, multipart, type Actor } from '../../../tests/helpers/portal.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { REPORT_NOTIFICATION_KIND } from './report-mail.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';

let t: TestApp;
let smtp: TestSmtpServer;
let admin: Actor;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ t, admin } = await appWithAdmin({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' }));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function addReport(project: { _id: string; code: string; name: string }, date: string, progress = 'SECRET-PROGRESS words', by: Actor = admin) {
  const body = await multipart({ date, projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Piling', progress });
  const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...by.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(201);
  return res.json().report._id as string;
}
const emailOf = async (who: Actor) => (await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, who.id)))[0].email;
const reportMailsTo = async (email: string) =>
  (await t.database.db.select().from(mailOutbox)).filter((m) => m.kind === REPORT_NOTIFICATION_KIND && m.to === email);

describe('report mail', () => {
  it('mails the client about a new report with a link to it, at most once per project per 15 minutes', async () => {
    const client = await actor(t, 'client', 'Ifeoma Client');
    const email = await emailOf(client);
    const project = await createProjectVia(t, admin, client.id, { name: 'Aba ring road' });
    smtp.clear();
    const reportId = await addReport(project, '2026-11-20');
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes(email));
    expect(mail.subject).toBe('New progress report for Aba ring road');
    expect(mail.text).toContain('Hello Ifeoma Client,');
    expect(mail.text).toContain('20 Nov 2026');
    expect(mail.text).toContain(`http://localhost:3000/s/client/dashboard?project=${project._id}#report-${reportId}`);
    expect(mail.text).toContain('turn these e-mails off under Account');
    // The report's content stays behind the sign-in.
    expect(mail.text).not.toContain('SECRET-PROGRESS');
    expect(mail.html).not.toContain('SECRET-PROGRESS');

    // Within the quiet period a second report is not mailed; after it, the next one is.
    t.clock.advance(14 * 60_000);
    await addReport(project, '2026-11-21');
    expect(await reportMailsTo(email)).toHaveLength(1);
    t.clock.advance(2 * 60_000);
    await addReport(project, '2026-11-22');
    await smtp.waitForMail((m) => m.envelopeTo.includes(email) && m.text.includes('22 Nov 2026'));
    expect(await reportMailsTo(email)).toHaveLength(2);
    // Another project of the same client has its own quiet period.
    const second = await createProjectVia(t, admin, client.id, { name: 'Umuahia depot' });
    await addReport(second, '2026-11-22');
    await smtp.waitForMail((m) => m.envelopeTo.includes(email) && m.subject === 'New progress report for Umuahia depot');
    expect(await reportMailsTo(email)).toHaveLength(3);
  });

  it('says when the report was added in Lagos time, naming the zone (issue 22)', async () => {
    const before = t.clock.now();
    // 23:30 UTC is 00:30 the next day in Lagos. Everyone signs in after the jump, so no session idles out.
    t.clock.set(new Date('2026-11-22T23:30:00Z'));
    try {
      const staff = await actor(t, 'admin');
      const client = await actor(t, 'client');
      const email = await emailOf(client);
      const project = await createProjectVia(t, staff, client.id);
      smtp.clear();
      await addReport(project, '2026-11-22', 'Piles driven', staff);
      const mail = await smtp.waitForMail((m) => m.envelopeTo.includes(email));
      expect(mail.text).toMatch(/Report date: +22 Nov 2026/);
      expect(mail.text).toMatch(/Added: +23 Nov 2026, 00:30 WAT/);
    } finally {
      t.clock.set(before);
    }
  });

  it('sends nothing to a client who turned these mails off in Account, and again once turned back on', async () => {
    const client = await actor(t, 'client');
    const email = await emailOf(client);
    const project = await createProjectVia(t, admin, client.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/mail-setting', headers: client.headers })).json()).toEqual({ success: true, reportMail: true });
    const off = await t.app.inject({ method: 'PUT', url: '/api/reports/mail-setting', headers: client.headers, payload: { reportMail: false } });
    expect(off.json()).toEqual({ success: true, reportMail: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/mail-setting', headers: client.headers })).json().reportMail).toBe(false);
    await addReport(project, '2026-11-20');
    expect(await reportMailsTo(email)).toEqual([]);

    await t.app.inject({ method: 'PUT', url: '/api/reports/mail-setting', headers: client.headers, payload: { reportMail: true } });
    await addReport(project, '2026-11-21');
    expect(await reportMailsTo(email)).toHaveLength(1);
  });

  it('refuses a setting that is not true or false, and changes nothing', async () => {
    const client = await actor(t, 'client');
    for (const payload of [{ reportMail: 'no' }, {}, { reportMail: null }]) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/reports/mail-setting', headers: client.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/mail-setting', headers: client.headers })).json().reportMail).toBe(true);
  });

  it("changes only the caller's own setting", async () => {
    const a = await actor(t, 'client');
    const b = await actor(t, 'client');
    await t.app.inject({ method: 'PUT', url: '/api/reports/mail-setting', headers: a.headers, payload: { reportMail: false } });
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/mail-setting', headers: b.headers })).json().reportMail).toBe(true);
  });
});
