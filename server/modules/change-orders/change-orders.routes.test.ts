import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';
import { actor, createProjectVia, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import type { WaitingItem } from '../../../common/schemas/approvals.ts';

// Change orders (issue 25, decision 294): every route, who may call it, exact kobo arithmetic, one
// winner among concurrent decisions, decided change orders frozen, bad amounts refused whole.

let t: TestApp;
let admin: Actor;
let client: Actor;
let otherClient: Actor;
let plainMember: Actor;
let approver: Actor;

const DRAFT = { title: 'Extra piles at the quay head', description: 'Four more piles, 18 m each.', cost: '4,500,000.50', scheduleDays: 21 };

async function personOf(org: Actor, memberRole: 'member' | 'approver', name: string): Promise<Actor> {
  const user = await createUser(t, { role: 'client', name, organisationId: org.id, memberRole });
  const { cookie } = await signIn(t, user, 'client');
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

const call = (who: Actor, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) => t.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload }) });

async function draft(projectId: string, body: Record<string, unknown> = DRAFT) {
  const res = await call(admin, 'POST', `/api/change-orders/project/${projectId}`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().changeOrder as { _id: string; reference: string; costKobo: string; status: string };
}

async function sent(projectId: string, body: Record<string, unknown> = DRAFT) {
  const co = await draft(projectId, body);
  expect((await call(admin, 'POST', `/api/change-orders/${co._id}/send`)).statusCode).toBe(200);
  return co;
}

const projectRow = async (id: string) =>
  (await t.database.pool.query<{ budget: string; original: string; end: string | null }>(
    'select budget_kobo::text as budget, original_budget_kobo::text as original, end_date::text as "end" from projects where id = $1',
    [id],
  )).rows[0];
const countChangeOrders = async () => (await t.database.pool.query<{ n: number }>('select count(*)::int as n from change_orders')).rows[0].n;

beforeAll(async () => {
  ({ t, admin } = await appWithAdmin());
  client = await actor(t, 'client', 'Harbour Logistics Ltd');
  otherClient = await actor(t, 'client', 'Other Works Ltd');
  plainMember = await personOf(client, 'member', 'Plain Member');
  approver = await personOf(client, 'approver', 'Ada Approver');
});
afterAll(() => t?.close());

describe('drafting and correcting', () => {
  it('drafts with exact kobo, numbers CO-001 on, and keeps drafts from the client', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const first = await draft(project._id);
    const second = await draft(project._id, { ...DRAFT, cost: '-250000', scheduleDays: -3 });
    expect(first).toMatchObject({ reference: 'CO-001', costKobo: '450000050', status: 'draft' });
    expect(second).toMatchObject({ reference: 'CO-002', costKobo: '-25000000', scheduleDays: -3 });
    const seen = await call(client, 'GET', `/api/change-orders/project/${project._id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().changeOrders).toEqual([]);
    expect((await call(admin, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders).toHaveLength(2);
  });

  it.each([
    [{ ...DRAFT, cost: '1.005' }, 'body.cost'],
    [{ ...DRAFT, cost: 'lots' }, 'body.cost'],
    [{ ...DRAFT, cost: 1e21 }, 'body.cost'],
    [{ ...DRAFT, cost: '4,50,000' }, 'body.cost'],
    [{ ...DRAFT, scheduleDays: 2.5 }, 'body.scheduleDays'],
    [{ ...DRAFT, title: '' }, 'body.title'],
    [{ ...DRAFT, description: '' }, 'body.description'],
  ])('refuses a bad draft (%o) with 400 naming %s, storing nothing', async (body, field) => {
    const project = await createProjectVia(t, admin, client.id);
    const before = await countChangeOrders();
    const res = await call(admin, 'POST', `/api/change-orders/project/${project._id}`, body);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().details)).toContain(field);
    expect(await countChangeOrders()).toBe(before);
  });

  it('corrects a draft, and refuses a bad amount in a correction leaving it as it was', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const res = await call(admin, 'PATCH', `/api/change-orders/${co._id}`, { cost: '1,000,000', scheduleDays: 7 });
    expect(res.statusCode).toBe(200);
    expect(res.json().changeOrder).toMatchObject({ costKobo: '100000000', scheduleDays: 7, title: DRAFT.title });
    expect((await call(admin, 'PATCH', `/api/change-orders/${co._id}`, { cost: '0.001' })).statusCode).toBe(400);
    expect((await call(admin, 'PATCH', `/api/change-orders/${co._id}`, {})).statusCode).toBe(400);
    const list = (await call(admin, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders;
    expect(list[0].costKobo).toBe('100000000');
  });

  it('hides another client project and change order behind 404, and keeps staff-only routes from clients', async () => {
    const foreign = await createProjectVia(t, admin, otherClient.id);
    const co = await sent(foreign._id);
    expect((await call(client, 'GET', `/api/change-orders/project/${foreign._id}`)).statusCode).toBe(404);
    expect((await call(client, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' })).statusCode).toBe(404);
    expect((await call(client, 'POST', `/api/change-orders/project/${foreign._id}`, DRAFT)).statusCode).toBe(403);
    expect((await call(client, 'PATCH', `/api/change-orders/${co._id}`, { title: 'Mine now' })).statusCode).toBe(403);
  });
});

describe('sending, withdrawing and deciding', () => {
  it('sends to the client, mails its approvers, and the client sees it', async () => {
    const project = await createProjectVia(t, admin, client.id, { name: 'Onne Quay' });
    const co = await sent(project._id);
    const list = (await call(plainMember, 'GET', `/api/change-orders/project/${project._id}`)).json();
    expect(list.changeOrders).toMatchObject([{ _id: co._id, status: 'sent' }]);
    const mails = await t.database.pool.query<{ to: string; subject: string }>(`select "to", subject from mail_outbox where kind = 'change-order-notification' and subject like '%Onne Quay%'`);
    // The founder (the organisation's admin) and the approver; the plain member may not decide, so is not asked.
    expect(mails.rows.map((m) => m.to).sort()).toHaveLength(2);
    expect(mails.rows[0].subject).toBe('Change order CO-001 for Onne Quay waits for your decision');
    expect((await call(admin, 'PATCH', `/api/change-orders/${co._id}`, { title: 'Too late' })).statusCode).toBe(409);
    expect((await call(admin, 'POST', `/api/change-orders/${co._id}/send`)).statusCode).toBe(409);
  });

  it("refuses a member without approvals.decide (403) and a decline without a comment (400)", async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await sent(project._id);
    expect((await call(plainMember, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' })).statusCode).toBe(403);
    expect((await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'decline' })).statusCode).toBe(400);
    expect((await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'decline', comment: '   ' })).statusCode).toBe(400);
    expect((await call(admin, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders[0].status).toBe('sent');
  });

  it('approves +₦4,500,000.50 and +21 days exactly: budget, end date and history move together', async () => {
    const project = await createProjectVia(t, admin, client.id, { budget: '120,000,000.25', startDate: '2026-01-10', endDate: '2026-12-31' });
    const co = await sent(project._id);
    const res = await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve', comment: 'Go ahead' });
    expect(res.statusCode).toBe(200);
    expect(res.json().changeOrder).toMatchObject({
      status: 'approved',
      decidedByName: 'Ada Approver',
      decisionComment: 'Go ahead',
      budgetBeforeKobo: '12000000025',
      budgetAfterKobo: '12450000075',
      endDateBefore: '2026-12-31',
      endDateAfter: '2027-01-21',
    });
    expect(await projectRow(project._id)).toEqual({ budget: '12450000075', original: '12000000025', end: '2027-01-21' });
    const staffView = await call(admin, 'GET', `/api/change-orders/project/${project._id}`);
    expect(staffView.json().history).toEqual({ originalBudgetKobo: '12000000025', currentBudgetKobo: '12450000075', originalEndDate: '2026-12-31', currentEndDate: '2027-01-21' });
    const clientView = await call(client, 'GET', `/api/change-orders/project/${project._id}`);
    expect(clientView.json().history.currentBudgetKobo).toBe('12450000075');
    // The projects API keeps its numeric budget (the specification's shape) and gives the exact kobo beside it.
    const p = (await call(admin, 'GET', `/api/projects/client/${client.id}?status=all`)).json().projects.find((x: { _id: string }) => x._id === project._id);
    expect(p).toMatchObject({ budget: 124500000.75, budgetKobo: '12450000075', endDate: '2027-01-21' });
    const staffMail = await t.database.pool.query<{ subject: string }>(`select subject from mail_outbox where kind = 'change-order-notification' and "to" = 'staff@localhost.test' order by created_at desc limit 1`);
    expect(staffMail.rows[0]?.subject).toMatch(/CO-001 .* approved$/);
  });

  it('never changes an approved or declined change order', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const approved = await sent(project._id);
    await call(approver, 'POST', `/api/change-orders/${approved._id}/decision`, { decision: 'approve' });
    const declined = await sent(project._id);
    await call(approver, 'POST', `/api/change-orders/${declined._id}/decision`, { decision: 'decline', comment: 'Not in this phase' });
    const before = await projectRow(project._id);
    for (const id of [approved._id, declined._id]) {
      expect((await call(admin, 'PATCH', `/api/change-orders/${id}`, { cost: '1' })).statusCode).toBe(409);
      expect((await call(admin, 'POST', `/api/change-orders/${id}/withdraw`)).statusCode).toBe(409);
      expect((await call(admin, 'POST', `/api/change-orders/${id}/send`)).statusCode).toBe(409);
      expect((await call(approver, 'POST', `/api/change-orders/${id}/decision`, { decision: 'approve' })).statusCode).toBe(409);
    }
    expect(await projectRow(project._id)).toEqual(before);
  });

  it('withdraws before the decision; a withdrawn one cannot be decided', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await sent(project._id);
    expect((await call(admin, 'POST', `/api/change-orders/${co._id}/withdraw`)).json().changeOrder.status).toBe('withdrawn');
    expect((await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' })).statusCode).toBe(409);
    const draftOnly = await draft(project._id);
    expect((await call(admin, 'POST', `/api/change-orders/${draftOnly._id}/withdraw`)).statusCode).toBe(200);
    // Withdrawn before it was sent: the client never sees it.
    expect((await call(client, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders.map((c: { _id: string }) => c._id)).toEqual([co._id]);
  });

  it('lets exactly one of two concurrent decisions win; the other is 409 and the budget moves once', async () => {
    const project = await createProjectVia(t, admin, client.id, { budget: '1000', endDate: '2026-06-30' });
    const co = await sent(project._id);
    const [a, b] = await meetingAtLockedRow(t, 'projects', project._id, 2, () =>
      Promise.all([
        call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' }),
        call(client, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'decline', comment: 'No' }),
      ]),
    );
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const row = await projectRow(project._id);
    if (a.statusCode === 200) expect(row).toMatchObject({ budget: '450100050', end: '2026-07-21' });
    else expect(row).toMatchObject({ budget: '100000', end: '2026-06-30' });
  });

  it('refuses an approval that would take the sum below zero, changing nothing', async () => {
    const project = await createProjectVia(t, admin, client.id, { budget: '100' });
    const co = await sent(project._id, { ...DRAFT, cost: '-100.01' });
    expect((await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' })).statusCode).toBe(409);
    expect((await projectRow(project._id)).budget).toBe('10000');
  });

  it('keeps the original sum consistent when staff correct the budget after approvals', async () => {
    const project = await createProjectVia(t, admin, client.id, { budget: '1000' });
    const co = await sent(project._id, { ...DRAFT, cost: '500' });
    await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' });
    expect((await call(admin, 'PATCH', `/api/projects/${project._id}`, { budget: '2000' })).statusCode).toBe(200);
    expect(await projectRow(project._id)).toMatchObject({ budget: '200000', original: '150000' });
  });
});

describe('certificate', () => {
  it('draws a decided change order as a one-page PDF with its facts, for staff and its client only', async () => {
    const project = await createProjectVia(t, admin, client.id, { budget: '120,000,000.25', startDate: '2026-01-10', endDate: '2026-12-31' });
    const co = await sent(project._id);
    const url = `/api/change-orders/${co._id}/certificate`;
    expect((await call(admin, 'GET', url)).statusCode).toBe(404);
    const decided = await t.app.inject({
      method: 'POST',
      url: `/api/change-orders/${co._id}/decision`,
      headers: approver.headers,
      payload: { decision: 'approve', comment: 'Agreed on site' },
      remoteAddress: '198.51.100.41',
    });
    expect(decided.statusCode).toBe(200);
    for (const who of [admin, client, approver, plainMember]) {
      const cert = await call(who, 'GET', url);
      expect(cert.statusCode).toBe(200);
      expect(cert.headers['content-type']).toBe('application/pdf');
      expect(cert.headers['content-disposition']).toContain('change-order-CO-001-approved.pdf');
      expect(cert.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = (await pdfText(cert.rawPayload)).replace(/\n/g, ' ');
      for (const fact of [
        'Change order certificate',
        project.name,
        'CO-001: Extra piles at the quay head',
        '+₦4,500,000.50',
        '+21 days',
        '₦120,000,000.25 before, ₦124,500,000.75 after',
        '31 Dec 2026 before, 21 Jan 2027 after',
        'APPROVED',
        'Ada Approver',
        '198.51.100.41',
        'Agreed on site',
      ])
        expect(text).toContain(fact);
      expect(text).not.toContain('SHA-256');
    }
    expect((await call(otherClient, 'GET', url)).statusCode).toBe(404);
  });

  it('marks a declined change order DECLINED, without a contract move', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await sent(project._id);
    await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'decline', comment: 'Not in this phase' });
    const cert = await call(client, 'GET', `/api/change-orders/${co._id}/certificate`);
    expect(cert.statusCode).toBe(200);
    const text = (await pdfText(cert.rawPayload)).replace(/\n/g, ' ');
    expect(text).toContain('DECLINED');
    expect(text).toContain('Not in this phase');
    expect(text).not.toContain('Contract sum');
  });
});

describe('waiting on you', () => {
  // The change orders' source of GET /api/approvals/waiting (decisions 293, 294).
  async function waitingOf(who: Actor): Promise<WaitingItem[]> {
    const res = await call(who, 'GET', '/api/approvals/waiting');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items;
  }

  it('lists sent change orders for a client approver, drafts and undecided ones for staff, nothing for a plain member', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await sent(project._id);
    expect(await waitingOf(approver)).toContainEqual(
      expect.objectContaining({ kind: 'change-order', id: co._id, projectId: project._id, title: `CO-001: ${DRAFT.title}`, state: 'decide', dueOn: null, overdue: false }),
    );
    expect((await waitingOf(plainMember)).map((i) => i.id)).not.toContain(co._id);
    expect((await waitingOf(otherClient)).map((i) => i.id)).not.toContain(co._id);
    const d = await draft(project._id);
    const asStaff = await waitingOf(admin);
    expect(asStaff).toContainEqual(expect.objectContaining({ kind: 'change-order', id: d._id, state: 'draft' }));
    expect(asStaff).toContainEqual(expect.objectContaining({ kind: 'change-order', id: co._id, state: 'awaiting-client' }));
    // Decided: it waits on nobody.
    expect((await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve' })).statusCode).toBe(200);
    expect((await waitingOf(approver)).map((i) => i.id)).not.toContain(co._id);
    expect((await waitingOf(admin)).map((i) => i.id)).not.toContain(co._id);
  });
});
