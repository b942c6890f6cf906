import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalReminders } from '../../db/schema/approvals.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { users } from '../../db/schema/users.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import { createProjectVia, multipart, type Actor } from '../../../tests/helpers/portal.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { appOnSameDatabase } from '../../../tests/helpers/second-app.ts';
import { sendApprovalReminders } from './approval-reminders.ts';

// Reminders (decision 293): two days before the due day and on the day, at most one mail a day per
// person, however many processes tick at once. The clock is the test's (fake) clock.

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let others: Array<Awaited<ReturnType<typeof appOnSameDatabase>>> = [];
const DAY = 86_400_000;

beforeAll(async () => {
  ({ t, admin, client, project } = await appWithProject('Apapa Quay Wall'));
  // Another approver of the client, and a plain member (never reminded).
  await createUser(t, { role: 'client', name: 'Second Approver', email: 'approver2@example.test', organisationId: client.id, memberRole: 'approver' });
  await createUser(t, { role: 'client', name: 'Plain Member', email: 'member@example.test', organisationId: client.id, memberRole: 'member' });
  others = [await appOnSameDatabase(t, { ADMIN_MFA_REQUIRED: 'false' }), await appOnSameDatabase(t, { ADMIN_MFA_REQUIRED: 'false' })];
});
afterAll(async () => {
  for (const o of others) await o.close();
  await t?.close();
});

async function askFor(projectId: string, code: string, name: string, dueOn: string) {
  const body = await multipart({ date: '2026-11-20', projectId, projectCode: code, project: name, tasks: 'Work', progress: 'Done' });
  const report = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
  const res = await t.app.inject({ method: 'POST', url: '/api/approvals', headers: admin.headers, payload: { subject: { type: 'report', reportId: report.json().report._id }, dueOn } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().approval._id as string;
}

const reminders = async () => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'approval-reminder'))).map((m) => ({ to: m.to, subject: m.subject, text: m.text }));
/** Every process ticks at the same moment. */
const tickEverywhere = () => Promise.all([sendApprovalReminders(t.app), ...others.map((o) => sendApprovalReminders(o.app)), sendApprovalReminders(t.app)]);

describe('approval reminders', () => {
  it('reminds each approver two days before and on the due day, once a day, whatever the number of tickers', async () => {
    // The clock: 22 Nov 2026, 10:00 in Lagos. Two requests due 25 Nov, on two projects of the client.
    const second = await createProjectVia(t, admin, client.id, { name: 'Tin Can Berth' });
    await askFor(project._id, project.code, project.name, '2026-11-25');
    await askFor(second._id, second.code, second.name, '2026-11-25');
    const [founder] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, client.id));

    // 22 Nov: three days ahead, nothing.
    expect((await tickEverywhere()).reduce((a, b) => a + b, 0)).toBe(0);
    expect(await reminders()).toEqual([]);

    // 23 Nov: two days ahead. Many tickers, many times: one mail per approver, naming both requests.
    t.clock.advance(DAY);
    await tickEverywhere();
    await tickEverywhere();
    let sent = await reminders();
    expect(sent.map((m) => m.to).sort()).toEqual(['approver2@example.test', founder.email].sort());
    for (const mail of sent) {
      expect(mail.subject).toContain('due in two days');
      expect(mail.text).toContain(project.name);
      expect(mail.text).toContain('Tin Can Berth');
    }

    // Later the same day: still one each.
    t.clock.advance(6 * 60 * 60_000);
    await tickEverywhere();
    expect(await reminders()).toHaveLength(2);

    // 24 Nov: one day ahead, no reminder.
    t.clock.advance(DAY);
    await tickEverywhere();
    expect(await reminders()).toHaveLength(2);

    // 25 Nov, the due day: one more each.
    t.clock.advance(DAY);
    await tickEverywhere();
    await tickEverywhere();
    sent = await reminders();
    expect(sent).toHaveLength(4);
    expect(sent.filter((m) => m.subject.includes('due today'))).toHaveLength(2);
    expect(await t.database.db.select().from(approvalReminders)).toHaveLength(4);

    // 26 Nov: overdue, not reminded again.
    t.clock.advance(DAY);
    await tickEverywhere();
    expect(await reminders()).toHaveLength(4);
  });

  it('does not remind of a decided request', async () => {
    // Days went by in the test above: the sessions expired.
    admin.headers.cookie = (await signIn(t, { id: admin.id }, 'admin')).cookie;
    client.headers.cookie = (await signIn(t, { id: client.id }, 'client')).cookie;
    const today = new Date(t.clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10);
    const id = await askFor(project._id, project.code, project.name, today);
    const before = (await reminders()).length;
    expect((await t.app.inject({ method: 'POST', url: `/api/approvals/${id}/decision`, headers: client.headers, payload: { decision: 'approved' } })).statusCode).toBe(200);
    await tickEverywhere();
    expect(await reminders()).toHaveLength(before);
  });
});
