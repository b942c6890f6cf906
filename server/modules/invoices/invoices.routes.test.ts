import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';
import { draftInvoice, FINANCE_SETTINGS, issuedInvoice, putPlan, recordTransfer, saveFinanceSettings } from '../../../tests/helpers/finance.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { actor, createProjectVia, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';

// The payment plan's routes (issue 26, decision 298): plans that add up (or say they do not),
// invoices numbered without gaps and frozen once issued, credit notes within their lines, payments
// that never pass what is owed even when recorded at once, and who sees what.

let t: TestApp;
let admin: Actor;
let client: Actor;
let plainMember: Actor;
let financeMember: Actor;

async function personOf(org: Actor, memberRole: 'member' | 'approver' | 'finance', name: string, email: string): Promise<Actor> {
  const user = await createUser(t, { role: 'client', name, email, organisationId: org.id, memberRole });
  const { cookie } = await signIn(t, user, 'client');
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

const call = (who: Actor, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const count = async (table: string) => (await t.database.pool.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;
const mailsTo = async (email: string) => (await t.database.pool.query<{ subject: string }>('select subject from mail_outbox where "to" = $1 order by created_at', [email])).rows;

beforeAll(async () => {
  ({ t, admin } = await appWithAdmin());
  client = await actor(t, 'client', 'Harbour Logistics Ltd');
  plainMember = await personOf(client, 'member', 'Plain Member', 'plain@example.test');
  financeMember = await personOf(client, 'finance', 'Funmi Finance', 'finance@example.test');
});
afterAll(() => t?.close());

describe('the payment plan', () => {
  it('resolves shares against the contract sum to the kobo, says when the plan does not add up, and keeps invoiced milestones', async () => {
    // ₦2,500,000.01: thirds that cannot divide evenly.
    const project = await createProjectVia(t, admin, client.id, { budget: '2500000.01' });
    let res = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, {
      milestones: [
        { name: 'Mobilisation', share: '33.33' },
        { name: 'Structure', share: '33.33' },
        { name: 'Handover', share: '33.34', dueDate: '2027-03-31' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json();
    const amounts = plan.milestones.map((m: { resolvedKobo: string }) => BigInt(m.resolvedKobo));
    expect(amounts.reduce((a: bigint, b: bigint) => a + b, 0n)).toBe(250000001n);
    expect(plan.summary.planBalanceKobo).toBe('0');

    // A fixed amount short of the sum: the plan says so rather than refusing.
    res = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, { milestones: [{ id: plan.milestones[0]._id, name: 'Mobilisation', amount: '1,000,000.00' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().summary.planBalanceKobo).toBe('150000001');
    expect(res.json().milestones[0]._id).toBe(plan.milestones[0]._id);

    // Both an amount and a share, shares past 100 %, a bad share: refused whole, nothing changed.
    for (const milestones of [
      [{ name: 'X', amount: '1', share: '10' }],
      [{ name: 'A', share: '60' }, { name: 'B', share: '50' }],
      [{ name: 'A', share: '12.345' }],
    ]) {
      const bad = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, { milestones });
      expect(bad.statusCode, bad.body).toBe(400);
    }
    expect((await call(admin, 'GET', `/api/finance/project/${project._id}`)).json().milestones).toHaveLength(1);

    // A milestone with an invoice stays.
    await saveFinanceSettings(t, admin.headers);
    await draftInvoice(t, admin.headers, project._id, { milestoneId: plan.milestones[0]._id });
    res = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, { milestones: [] });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('Mobilisation');
  });

  it('shows each dependency as done, pending, or no longer on the timeline', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const timeline = await call(admin, 'POST', '/api/gantt-charts', {
      projectId: project._id,
      projectTitle: 'Quay plan',
      tasks: [
        { task: 'Piling', month: '2026-12', status: 'completed' },
        { task: 'Deck', month: '2027-01' },
      ],
    });
    const timelineId = timeline.json().timeline._id as string;
    const res = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, {
      milestones: [
        { name: 'Piles done', share: '50', dependsOn: [{ timelineId, task: 'Piling' }, { timelineId, task: 'Deck' }, { timelineId, task: 'Renamed away' }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().milestones[0].dependsOn).toEqual([
      { timelineId, task: 'Piling', timelineTitle: 'Quay plan', onTimeline: true, done: true },
      { timelineId, task: 'Deck', timelineTitle: 'Quay plan', onTimeline: true, done: false },
      { timelineId, task: 'Renamed away', timelineTitle: 'Quay plan', onTimeline: false, done: false },
    ]);

    // The timeline gone (no route deletes one today; the database can): the milestone keeps its dependencies and the plan still saves.
    await t.database.pool.query('delete from gantt_charts where id = $1', [timelineId]);
    const milestone = res.json().milestones[0];
    const again = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, {
      milestones: [{ id: milestone._id, name: 'Piles done', share: '50', dependsOn: [{ timelineId, task: 'Piling' }] }],
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().milestones[0].dependsOn).toEqual([{ timelineId, task: 'Piling', timelineTitle: null, onTimeline: false, done: false }]);
  });

  it('refuses a dependency on another project’s timeline', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const other = await createProjectVia(t, admin, client.id);
    const timeline = await call(admin, 'POST', '/api/gantt-charts', { projectId: other._id, projectTitle: 'Plan', tasks: [{ task: 'Piling', month: '2026-12' }] });
    const res = await call(admin, 'PUT', `/api/finance/project/${project._id}/plan`, {
      milestones: [{ name: 'Piles done', share: '50', dependsOn: [{ timelineId: timeline.json().timeline._id, task: 'Piling' }] }],
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('invoices', () => {
  it('drafts from a milestone with VAT per line, refuses to issue without TIN and bank, then numbers without gaps and freezes', async () => {
    await saveFinanceSettings(t, admin.headers, { taxId: '', bankAccountNumber: '' });
    const project = await createProjectVia(t, admin, client.id, { budget: '1000000' });
    const plan = (await putPlan(t, admin.headers, project._id, [{ name: 'Deposit', share: '30' }])).milestones;
    const draft = await draftInvoice(t, admin.headers, project._id, { milestoneId: plan[0]._id });
    // ₦300,000.00 net, 7.5 % VAT = ₦22,500.00.
    expect(draft.grossKobo).toBe('32250000');
    // The milestone is invoiced in full (by the draft): a second invoice on it needs lines of its own.
    const again = await call(admin, 'POST', `/api/finance/project/${project._id}/invoices`, { milestoneId: plan[0]._id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('invoiced in full');

    let res = await call(admin, 'POST', `/api/invoices/${draft._id}/issue`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('TIN');
    await saveFinanceSettings(t, admin.headers);

    // The client never sees a draft.
    expect((await call(client, 'GET', `/api/invoices/${draft._id}/pdf`)).statusCode).toBe(404);
    expect((await call(client, 'GET', `/api/finance/project/${project._id}`)).json().invoices).toHaveLength(0);

    res = await call(admin, 'POST', `/api/invoices/${draft._id}/issue`);
    expect(res.statusCode, res.body).toBe(200);
    const issued = res.json().invoice;
    expect(issued.number).toMatch(/^INV-\d{4}-\d{4,}$/);
    expect(issued.status).toBe('due');

    // Frozen: no edit, no delete, no second issue; the database agrees.
    expect((await call(admin, 'PATCH', `/api/invoices/${draft._id}`, { notes: 'changed' })).statusCode).toBe(409);
    expect((await call(admin, 'DELETE', `/api/invoices/${draft._id}`)).statusCode).toBe(409);
    expect((await call(admin, 'POST', `/api/invoices/${draft._id}/issue`)).statusCode).toBe(409);
    await expect(t.database.pool.query("update invoices set notes = 'x' where id = $1", [draft._id])).rejects.toThrow();

    // Mailed to the client's people who see invoices, never to a plain member.
    expect((await mailsTo('finance@example.test')).some((m) => m.subject.includes(issued.number))).toBe(true);
    expect((await mailsTo('plain@example.test')).some((m) => m.subject.includes(issued.number))).toBe(false);

    // The PDF is an invoice with its number, total and bank details.
    const pdf = await call(financeMember, 'GET', issued.pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(issued.number);
    expect(text).toContain('₦322,500.00');
    expect(text).toContain('0123456789');
  });

  it('issues concurrent drafts with consecutive numbers, none repeated', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id);
    const drafts = await Promise.all(Array.from({ length: 6 }, () => draftInvoice(t, admin.headers, project._id)));
    const answers = await Promise.all(drafts.map((d) => call(admin, 'POST', `/api/invoices/${d._id}/issue`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    const sequences = answers.map((a) => Number(a.json().invoice.number.split('-')[2])).sort((a, b) => a - b);
    for (let i = 1; i < sequences.length; i++) expect(sequences[i]).toBe(sequences[i - 1] + 1);
  });

  it('refuses bad lines whole and keeps the draft as it was', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id);
    const draft = await draftInvoice(t, admin.headers, project._id);
    for (const lines of [[], [{ description: 'x', quantity: 1.5, unitPrice: '1' }], [{ description: 'x', quantity: 1, unitPrice: '1.234' }], [{ description: 'x', quantity: 1, unitPrice: '-5' }]]) {
      const res = await call(admin, 'PATCH', `/api/invoices/${draft._id}`, { lines });
      expect(res.statusCode, JSON.stringify(lines)).toBe(400);
    }
    const res = await call(admin, 'PATCH', `/api/invoices/${draft._id}`, {
      lines: [
        { description: 'Tiny', quantity: 1, unitPrice: '0.10' },
        { description: 'Exempt', quantity: 3, unitPrice: '100', vatable: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    // ₦0.10 at 7.5 % is 0.75 kobo → 1 kobo; the exempt line has none.
    expect(res.json().invoice.lines.map((l: { vatKobo: string }) => l.vatKobo)).toEqual(['1', '0']);
    expect(res.json().invoice.grossKobo).toBe(String(10 + 1 + 30000));
  });
});

describe('credit notes', () => {
  it('credits within each line, closes a line exactly, and numbers in its own series', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id);
    const invoice = await issuedInvoice(t, admin.headers, project._id, {
      lines: [
        { description: 'Survey', quantity: 1, unitPrice: '0.30' },
        { description: 'Design', quantity: 2, unitPrice: '500,000.00' },
      ],
    });
    const [survey, design] = invoice.lines;
    let res = await call(admin, 'POST', `/api/invoices/${invoice._id}/credit-notes`, { reason: 'Too much', lines: [{ invoiceLineId: design._id, amount: '1,000,000.01' }] });
    expect(res.statusCode).toBe(400);
    expect(await count(`credit_notes where invoice_id = '${invoice._id}'`)).toBe(0);

    // ₦0.10 of ₦0.30 (VAT 2 kobo on the line): 1 kobo; then the rest takes exactly the remaining 1 kobo.
    res = await call(admin, 'POST', `/api/invoices/${invoice._id}/credit-notes`, { reason: 'Partly', lines: [{ invoiceLineId: survey._id, amount: '0.10' }] });
    expect(res.statusCode, res.body).toBe(201);
    res = await call(admin, 'POST', `/api/invoices/${invoice._id}/credit-notes`, { reason: 'Rest', lines: [{ invoiceLineId: survey._id, amount: '0.20' }] });
    expect(res.statusCode, res.body).toBe(201);
    const after = res.json().invoice;
    expect(after.creditNotes).toHaveLength(2);
    expect(after.creditNotes[0].number).toMatch(/^CN-\d{4}-\d{4,}$/);
    const creditedVat = after.creditNotes.reduce((s: bigint, c: { vatKobo: string }) => s + BigInt(c.vatKobo), 0n);
    expect(creditedVat).toBe(2n);
    expect(after.lines[0].remainingNetKobo).toBe('0');
    expect(BigInt(after.outstandingKobo)).toBe(BigInt(after.grossKobo) - BigInt(after.creditedKobo));

    const pdf = await call(financeMember, 'GET', after.creditNotes[0].pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain(invoice.number);
  });
});

describe('payments', () => {
  it('takes part payments to paid, refuses more than outstanding and future dates, voids without deleting, and receipts each', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id);
    const invoice = await issuedInvoice(t, admin.headers, project._id, { lines: [{ description: 'Works', quantity: 1, unitPrice: '1,000.00' }] });
    expect(invoice.grossKobo).toBe('107500');

    let state = await recordTransfer(t, admin.headers, invoice._id, '500.00');
    expect(state.status).toBe('part-paid');
    expect(state.outstandingKobo).toBe('57500');
    let res = await call(admin, 'POST', `/api/invoices/${invoice._id}/payments`, { amount: '575.01', receivedOn: '2026-11-20', method: 'bank_transfer' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('₦575.00');
    res = await call(admin, 'POST', `/api/invoices/${invoice._id}/payments`, { amount: '1', receivedOn: '2999-01-01', method: 'cash' });
    expect(res.statusCode).toBe(400);
    res = await call(admin, 'POST', `/api/invoices/${invoice._id}/payments`, { amount: '1', receivedOn: '2026-11-20', method: 'paystack' });
    expect(res.statusCode).toBe(400);

    t.clock.advance(60_000);
    state = await recordTransfer(t, admin.headers, invoice._id, '575.00');
    expect(state.status).toBe('paid');
    expect(state.outstandingKobo).toBe('0');

    // A receipt per payment, and one to the client's finance person by mail.
    const receipt = await call(financeMember, 'GET', state.payments[1].receiptUrl);
    expect(receipt.statusCode).toBe(200);
    const text = await pdfText(receipt.rawPayload);
    expect(text).toContain('₦575.00');
    expect(text).toContain('Paid in full');
    expect((await mailsTo('finance@example.test')).filter((m) => m.subject.includes(invoice.number) && m.subject.startsWith('Payment received'))).toHaveLength(2);

    // Voided: kept, counts nothing, no receipt; twice is refused.
    res = await call(admin, 'POST', `/api/payments/${state.payments[1]._id}/void`, { reason: 'Bounced' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().invoice.outstandingKobo).toBe('57500');
    expect(res.json().invoice.payments[1]).toMatchObject({ voided: true, voidReason: 'Bounced' });
    expect((await call(admin, 'POST', `/api/payments/${state.payments[1]._id}/void`, { reason: 'Again' })).statusCode).toBe(409);
    expect((await call(admin, 'GET', state.payments[1].receiptUrl)).statusCode).toBe(409);

    // The project's balance: invoiced, paid, outstanding.
    const finance = (await call(financeMember, 'GET', `/api/finance/project/${project._id}`)).json();
    expect(finance.summary).toMatchObject({ invoicedKobo: '107500', paidKobo: '50000', outstandingKobo: '57500' });
  });

  it('lets only one of two payments that together pass the outstanding amount through, when they meet at the invoice', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id);
    const invoice = await issuedInvoice(t, admin.headers, project._id, { lines: [{ description: 'Works', quantity: 1, unitPrice: '1,000.00' }] });
    const body = { amount: '700.00', receivedOn: '2026-11-20', method: 'bank_transfer' };
    const answers = await meetingAtLockedRow(t, 'invoices', invoice._id, 2, () =>
      Promise.all([call(admin, 'POST', `/api/invoices/${invoice._id}/payments`, body), call(admin, 'POST', `/api/invoices/${invoice._id}/payments`, body)]),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await count(`payments where invoice_id = '${invoice._id}'`)).toBe(1);
  });
});

describe('who sees what', () => {
  it('shows invoices to the client’s finance people and not to a plain member; refuses deleting a project with invoices', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id);
    const invoice = await issuedInvoice(t, admin.headers, project._id);
    expect((await call(plainMember, 'GET', `/api/finance/project/${project._id}`)).statusCode).toBe(403);
    expect((await call(plainMember, 'GET', `/api/invoices/${invoice._id}/pdf`)).statusCode).toBe(403);
    expect((await call(financeMember, 'GET', `/api/finance/project/${project._id}`)).json().invoices).toHaveLength(1);
    expect((await call(client, 'GET', `/api/invoices/${invoice._id}/pdf`)).statusCode).toBe(200);
    const res = await call(admin, 'DELETE', `/api/projects/${project._id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('invoices');
  });
});

describe('the staff overview and settings', () => {
  it('sums this month and year, lists overdue oldest first, and exports CSV without formulas', async () => {
    await saveFinanceSettings(t, admin.headers);
    const project = await createProjectVia(t, admin, client.id, { name: '=HYPERLINK("x")' });
    const invoice = await issuedInvoice(t, admin.headers, project._id, { lines: [{ description: 'Works', quantity: 1, unitPrice: '2,000.00' }] });
    await recordTransfer(t, admin.headers, invoice._id, '150.00');
    const overview = (await call(admin, 'GET', '/api/finance/overview')).json();
    expect(BigInt(overview.month.invoicedKobo)).toBeGreaterThanOrEqual(215000n);
    expect(BigInt(overview.year.receivedKobo)).toBeGreaterThanOrEqual(15000n);
    expect(BigInt(overview.outstandingKobo)).toBeGreaterThanOrEqual(200000n);
    const csv = await call(admin, 'GET', '/api/finance/invoices.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const row = csv.body.split('\r\n').find((l) => l.startsWith(`${invoice.number},`));
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row).toContain(',2150.00,0.00,150.00,2000.00');
  });

  it('validates the settings and keeps them whole', async () => {
    expect((await call(admin, 'PUT', '/api/finance/settings', { ...FINANCE_SETTINGS, vatRate: '0' })).json().settings.vatRateBp).toBe(0);
    await saveFinanceSettings(t, admin.headers);
    for (const bad of [{ bankAccountNumber: '12345' }, { vatRate: '7.555' }, { invoicePrefix: 'inv-' }, { paymentTermsDays: -1 }]) {
      const res = await call(admin, 'PUT', '/api/finance/settings', { ...FINANCE_SETTINGS, ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const settings = (await call(admin, 'GET', '/api/finance/settings')).json().settings;
    expect(settings).toMatchObject({ vatRateBp: 750, bankAccountNumber: '0123456789' });
  });
});
