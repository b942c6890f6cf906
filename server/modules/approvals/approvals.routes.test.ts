import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalRequests } from '../../db/schema/approvals.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { users } from '../../db/schema/users.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import { actor, createProjectVia, multipart, type Actor } from '../../../tests/helpers/portal.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';
import type { WaitingItem } from '../../../common/schemas/approvals.ts';
import { canonicalJson, milestoneSha256, sha256Hex } from './approval-subjects.ts';

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let otherClient: Actor;
let plainMember: Actor;
let approver: Actor;

const DUE = '2026-11-30';

async function member(role: 'member' | 'approver', name: string): Promise<Actor> {
  const user = await createUser(t, { role: 'client', name, organisationId: client.id, memberRole: role });
  const { cookie } = await signIn(t, user, 'client');
  return { id: user.id, name: user.name, headers: { cookie, origin: 'http://localhost:3000' } };
}

beforeAll(async () => {
  ({ t, admin, client, project } = await appWithProject('Ikeja Pumping Station'));
  otherClient = await actor(t, 'client', 'Other Client');
  plainMember = await member('member', 'Mo Member');
  approver = await member('approver', 'Ayo Approver');
});
afterAll(() => t?.close());

async function newReport(progress = 'Foundations poured') {
  const body = await multipart({ date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Piling', progress });
  const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(201);
  return res.json().report as { _id: string; version: number };
}

async function correctReport(id: string, progress: string) {
  const body = await multipart({ progress });
  return t.app.inject({ method: 'PATCH', url: `/api/reports/${id}`, headers: { ...admin.headers, ...body.headers }, payload: body.payload });
}

const ask = (subject: unknown, extra: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/approvals', headers: admin.headers, payload: { subject, dueOn: DUE, note: 'Please check the pile depths', ...extra } });

const decide = (who: Actor, id: string, payload: Record<string, unknown>, remoteAddress = '203.0.113.77') =>
  t.app.inject({ method: 'POST', url: `/api/approvals/${id}/decision`, headers: who.headers, payload, remoteAddress });

async function askReport() {
  const report = await newReport();
  const res = await ask({ type: 'report', reportId: report._id });
  expect(res.statusCode, res.body).toBe(201);
  return { report, approval: res.json().approval as { _id: string; subjectSha256: string; status: string } };
}

describe('asking for approval', () => {
  it('fixes the report by its version and the SHA-256 of its canonical content, and mails each approver', async () => {
    const { report, approval } = await askReport();
    expect(approval).toMatchObject({ status: 'pending', subjectType: 'report', subjectVersion: 'Version 1', dueOn: DUE, overdue: false, requestedByName: expect.any(String) });
    expect(approval.subjectSha256).toMatch(/^[0-9a-f]{64}$/);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'approval-request'));
    const recipients = mails.filter((m) => m.subject.includes(project.name)).map((m) => m.to);
    // The founder (the client's admin) and the approver; not the plain member.
    const emailOf = async (who: Actor) => (await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, who.id)))[0].email;
    expect(recipients.sort()).toEqual([await emailOf(client), await emailOf(approver)].sort());
    // A second ask while one waits is refused, nothing stored.
    const again = await ask({ type: 'report', reportId: report._id });
    expect(again.statusCode).toBe(409);
    expect(await t.database.db.select().from(approvalRequests).where(eq(approvalRequests.reportId, report._id))).toHaveLength(1);
  });

  it('refuses a due date in the past, an unfinished milestone and a missing subject (nothing stored)', async () => {
    const before = (await t.database.db.select().from(approvalRequests)).length;
    const report = await newReport();
    expect((await ask({ type: 'report', reportId: report._id }, { dueOn: '2026-11-21' })).statusCode).toBe(400);
    const timeline = await t.app.inject({ method: 'POST', url: '/api/gantt-charts', headers: admin.headers, payload: { projectId: project._id, projectTitle: 'Plan', tasks: [{ task: 'Survey', month: '2026-11', status: 'in-progress' }] } });
    expect((await ask({ type: 'milestone', timelineId: timeline.json().timeline._id, taskIndex: 0 })).statusCode).toBe(400);
    expect((await ask({ type: 'milestone', timelineId: timeline.json().timeline._id, taskIndex: 5 })).statusCode).toBe(404);
    expect((await ask({ type: 'report', reportId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await ask({ type: 'document', documentVersionId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await t.database.db.select().from(approvalRequests)).length).toBe(before);
  });
});

describe('who may decide', () => {
  it('hides another client’s request (404) and refuses a member without approvals.decide (403)', async () => {
    const { approval } = await askReport();
    expect((await decide(otherClient, approval._id, { decision: 'approved' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/approvals/project/${project._id}`, headers: otherClient.headers })).statusCode).toBe(404);
    expect((await decide(plainMember, approval._id, { decision: 'approved' })).statusCode).toBe(403);
    // The plain member still reads the list.
    expect((await t.app.inject({ method: 'GET', url: `/api/approvals/project/${project._id}`, headers: plainMember.headers })).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(approvalRequests).where(eq(approvalRequests.id, approval._id));
    expect(row.status).toBe('pending');
  });

  it('requires a comment to reject', async () => {
    const { approval } = await askReport();
    const res = await decide(approver, approval._id, { decision: 'rejected', comment: '  ' });
    expect(res.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(approvalRequests).where(eq(approvalRequests.id, approval._id));
    expect(row.status).toBe('pending');
  });
});

describe('a decision', () => {
  it('records who, when, from where and the hash of the exact report, and has a certificate with those facts', async () => {
    const { report, approval } = await askReport();
    t.clock.advance(60_000);
    const res = await decide(approver, approval._id, { decision: 'approved', comment: 'Agreed' }, '198.51.100.23');
    expect(res.statusCode, res.body).toBe(200);
    const decided = res.json().approval;
    expect(decided).toMatchObject({ status: 'approved', decidedByName: 'Ayo Approver', decidedAddress: '198.51.100.23', decisionComment: 'Agreed', decidedAt: t.clock.now().toISOString() });
    expect(decided.decidedSha256).toBe(approval.subjectSha256);
    // The hash is of the report's canonical record, recomputed here from what the API shows.
    const [row] = await t.database.db.select().from(approvalRequests).where(eq(approvalRequests.id, approval._id));
    expect(row.decidedSha256).toBe(approval.subjectSha256);
    const list = await t.app.inject({ method: 'GET', url: `/api/reports/project/${project._id}`, headers: admin.headers });
    const shown = list.json().reports.find((r: { _id: string }) => r._id === report._id);
    const record = {
      kind: 'report',
      id: shown._id,
      version: shown.version,
      ...Object.fromEntries(['date', 'projectCode', 'project', 'team', 'tasks', 'progress', 'challenges', 'actionTaken', 'helpNeeded', 'nextSteps', 'feedback', 'conclusion'].map((k) => [k, shown[k]])),
      images: [],
    };
    expect(sha256Hex(canonicalJson(record))).toBe(row.decidedSha256);

    for (const who of [client, admin]) {
      const cert = await t.app.inject({ method: 'GET', url: decided.certificateUrl, headers: who.headers });
      expect(cert.statusCode).toBe(200);
      expect(cert.headers['content-type']).toBe('application/pdf');
      const text = (await pdfText(cert.rawPayload)).replace(/\n/g, ' ');
      for (const fact of ['Approval certificate', project.name, 'Progress report of', 'Version 1', 'APPROVED', 'Ayo Approver', '198.51.100.23', row.decidedSha256!, 'Agreed']) expect(text).toContain(fact);
    }
    expect((await t.app.inject({ method: 'GET', url: decided.certificateUrl, headers: otherClient.headers })).statusCode).toBe(404);
  });

  it('happens once: of two decisions at once exactly one wins, the other is 409', async () => {
    const { approval } = await askReport();
    const results = await meetingAtLockedRow(t, 'approval_requests', approval._id, 2, () =>
      Promise.all([decide(client, approval._id, { decision: 'approved' }), decide(approver, approval._id, { decision: 'rejected', comment: 'No' })]),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [row] = await t.database.db.select().from(approvalRequests).where(eq(approvalRequests.id, approval._id));
    const winner = results.find((r) => r.statusCode === 200)!.json().approval;
    expect(row.status).toBe(winner.status);
    const decisionMails = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'approval-decision')));
    expect(decisionMails.filter((m) => m.subject.includes(winner.subjectTitle) && m.createdAt.getTime() === t.clock.now().getTime()).length).toBeGreaterThanOrEqual(1);
    expect((await decide(client, approval._id, { decision: 'approved' })).statusCode).toBe(409);
  });

  it('is refused when the subject changed since it was asked', async () => {
    const { report, approval } = await askReport();
    expect((await correctReport(report._id, 'Changed after asking')).statusCode).toBe(200);
    const res = await decide(client, approval._id, { decision: 'approved' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/changed/);
  });
});

describe('an approved subject never changes', () => {
  it('refuses a correction of an approved report (409) and keeps it as approved', async () => {
    const { report, approval } = await askReport();
    expect((await decide(client, approval._id, { decision: 'approved' })).statusCode).toBe(200);
    const res = await correctReport(report._id, 'Rewritten');
    expect(res.statusCode).toBe(409);
    const list = await t.app.inject({ method: 'GET', url: `/api/reports/project/${project._id}`, headers: admin.headers });
    expect(list.json().reports.find((r: { _id: string }) => r._id === report._id).version).toBe(1);
    // And it cannot be asked again.
    expect((await ask({ type: 'report', reportId: report._id })).statusCode).toBe(409);
  });

  it('refuses a timeline edit that changes or moves an approved milestone; other tasks may change', async () => {
    const tasks = [
      { task: 'Mobilise', month: '2026-10', status: 'completed' },
      { task: 'Piling', month: '2026-11', status: 'in-progress' },
    ];
    const created = await t.app.inject({ method: 'POST', url: '/api/gantt-charts', headers: admin.headers, payload: { projectId: project._id, projectTitle: 'Works', tasks } });
    const timelineId = created.json().timeline._id as string;
    const asked = await ask({ type: 'milestone', timelineId, taskIndex: 0 });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().approval.subjectSha256).toBe(milestoneSha256(timelineId, 0, tasks[0] as never));
    expect((await decide(approver, asked.json().approval._id, { decision: 'approved' })).statusCode).toBe(200);
    const put = (next: unknown[]) => t.app.inject({ method: 'PUT', url: `/api/gantt-charts/${timelineId}`, headers: admin.headers, payload: { projectTitle: 'Works', tasks: next } });
    expect((await put([{ ...tasks[0], task: 'Mobilise (renamed)' }, tasks[1]])).statusCode).toBe(409);
    expect((await put([tasks[1], tasks[0]])).statusCode).toBe(409);
    expect((await put([tasks[0]])).statusCode).toBe(200);
    expect((await put([tasks[0], { ...tasks[1], status: 'completed' }])).statusCode).toBe(200);
  });
});

describe('a document version', () => {
  async function upload(url: string, text: string, fields: Record<string, string>) {
    const body = await multipart(fields, [{ field: 'file', name: 'drawing.pdf', type: 'application/pdf', data: samplePdf(text) }]);
    const res = await t.app.inject({ method: 'POST', url, headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().document as { _id: string; current: { _id: string; sha256: string; label: string } };
  }

  it('is approved by the SHA-256 of its bytes; a new version supersedes it and needs its own approval', async () => {
    const revA = await upload(`/api/projects/${project._id}/documents`, 'Rev A', { title: 'General arrangement', category: 'drawing', visibleToClient: 'true', label: 'Rev A' });
    expect(revA.current.sha256).toBe(sha256Hex(samplePdf('Rev A')));
    const asked = await ask({ type: 'document', documentVersionId: revA.current._id });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().approval.subjectSha256).toBe(revA.current.sha256);
    const decided = await decide(approver, asked.json().approval._id, { decision: 'approved' });
    expect(decided.json().approval.decidedSha256).toBe(sha256Hex(samplePdf('Rev A')));

    const revB = await upload(`/api/projects/${project._id}/documents/${revA._id}/versions`, 'Rev B', { label: 'Rev B' });
    // Rev A's approval stays Rev A's; Rev B is asked for anew.
    const askedB = await ask({ type: 'document', documentVersionId: revB.current._id });
    expect(askedB.statusCode).toBe(201);
    expect((await ask({ type: 'document', documentVersionId: revA.current._id })).statusCode).toBe(400);
    // A version superseded while waiting cannot be decided.
    const revC = await upload(`/api/projects/${project._id}/documents/${revA._id}/versions`, 'Rev C', { label: 'Rev C' });
    expect((await decide(client, askedB.json().approval._id, { decision: 'approved' })).statusCode).toBe(409);
    expect((await ask({ type: 'document', documentVersionId: revC.current._id })).statusCode).toBe(201);
  });

  it('is not asked while the client cannot see it, and stays hidden from other clients', async () => {
    const hidden = await upload(`/api/projects/${project._id}/documents`, 'Internal', { title: 'Internal calc', category: 'drawing', visibleToClient: 'false' });
    expect((await ask({ type: 'document', documentVersionId: hidden.current._id })).statusCode).toBe(400);
  });
});

describe('Waiting on you', () => {
  it('lists for the client what it may decide and for staff what awaits the client or needs follow-up, oldest first, overdue marked', async () => {
    const fresh = await createProjectVia(t, admin, client.id, { name: 'Waiting Project' });
    const mine = (items: WaitingItem[]) => items.filter((i) => i.projectId === fresh._id);
    const report = async (date: string) => {
      const body = await multipart({ date, projectId: fresh._id, projectCode: fresh.code, project: fresh.name, tasks: 'Work', progress: 'Done' });
      return (await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload })).json().report._id as string;
    };
    const first = (await ask({ type: 'report', reportId: await report('2026-11-01') }, { dueOn: todayPlus(1) })).json().approval._id;
    t.clock.advance(1000);
    const second = (await ask({ type: 'report', reportId: await report('2026-11-02') }, { dueOn: todayPlus(5) })).json().approval._id;
    const waiting = async (who: Actor) => mine((await t.app.inject({ method: 'GET', url: '/api/approvals/waiting', headers: who.headers })).json().items);

    expect((await waiting(client)).map((i) => [i.id, i.state])).toEqual([[first, 'decide'], [second, 'decide']]);
    expect(await waiting(plainMember)).toEqual([]);
    expect(await waiting(otherClient)).toEqual([]);
    expect((await waiting(admin)).map((i) => i.state)).toEqual(['awaiting-client', 'awaiting-client']);

    t.clock.advance(2 * 86_400_000);
    // Sessions idle two days have expired: sign everyone in again.
    for (const [who, role] of [[client, 'client'], [admin, 'admin'], [plainMember, 'client'], [otherClient, 'client'], [approver, 'client']] as const) {
      who.headers.cookie = (await signIn(t, { id: who.id }, role)).cookie;
    }
    expect((await waiting(client)).map((i) => i.overdue)).toEqual([true, false]);

    expect((await decide(client, second, { decision: 'rejected', comment: 'Wrong dates' })).statusCode).toBe(200);
    const staff = await waiting(admin);
    expect(staff.map((i) => [i.id, i.state])).toEqual([[first, 'awaiting-client'], [second, 'rejected']]);
    expect(staff[1].comment).toBe('Wrong dates');
    expect((await waiting(client)).map((i) => i.id)).toEqual([first]);

    expect((await t.app.inject({ method: 'POST', url: `/api/approvals/${second}/close`, headers: admin.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/approvals/${first}/close`, headers: admin.headers })).json().approval.status).toBe('withdrawn');
    expect(await waiting(admin)).toEqual([]);
    expect(await waiting(client)).toEqual([]);
  });
});

function todayPlus(days: number) {
  return new Date(t.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
