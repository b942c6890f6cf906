import { defineAccess, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';
import { draftInvoice, issuedInvoice, recordTransfer, saveFinanceSettings } from '../../../tests/helpers/finance.ts';

const PLAN = { milestones: [{ name: 'Mobilisation', share: '30' }] };
const LINES = { lines: [{ description: 'Survey', quantity: 1, unitPrice: '1000.00' }] };

/** A project of each client, with the finance settings saved. */
async function projects(ctx: AccessFixtureContext) {
  await saveFinanceSettings(ctx.t, ctx.admin.headers);
  const { a, b } = await projectsOfBoth(ctx);
  return { own: { projectId: a._id }, other: { projectId: b._id } };
}

/** A draft invoice on each client's project. */
async function drafts(ctx: AccessFixtureContext) {
  const { own, other } = await projects(ctx);
  return { own: { id: (await draftInvoice(ctx.t, ctx.admin.headers, own.projectId))._id }, other: { id: (await draftInvoice(ctx.t, ctx.admin.headers, other.projectId))._id } };
}

/** An issued invoice on each client's project (with a transfer recorded, for the payment routes). */
async function issued(ctx: AccessFixtureContext) {
  const { own, other } = await projects(ctx);
  const make = async (projectId: string) => {
    const invoice = await issuedInvoice(ctx.t, ctx.admin.headers, projectId);
    const paid = await recordTransfer(ctx.t, ctx.admin.headers, invoice._id, '100.00');
    return { invoice, paymentId: paid.payments[0]._id as string };
  };
  return { a: await make(own.projectId), b: await make(other.projectId) };
}

const issuedInvoices = async (ctx: AccessFixtureContext) => {
  const { a, b } = await issued(ctx);
  return { own: { id: a.invoice._id }, other: { id: b.invoice._id } };
};

const issuedPayments = async (ctx: AccessFixtureContext) => {
  const { a, b } = await issued(ctx);
  return { own: { id: a.paymentId }, other: { id: b.paymentId } };
};

async function creditNotes(ctx: AccessFixtureContext) {
  const { a, b } = await issued(ctx);
  const credit = async (invoice: { _id: string; lines: Array<{ _id: string }> }) => {
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/invoices/${invoice._id}/credit-notes`,
      headers: ctx.admin.headers,
      payload: { reason: 'Rate corrected', lines: [{ invoiceLineId: invoice.lines[0]._id, amount: '10.00' }] },
    });
    if (res.statusCode !== 201) throw new Error(`credit note not issued: ${res.statusCode} ${res.body}`);
    return res.json().invoice.creditNotes[0]._id as string;
  };
  return { own: { id: await credit(a.invoice) }, other: { id: await credit(b.invoice) } };
}

// Access expectations of the payment plan routes (decision 298; see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'GET', url: '/api/finance/project/:projectId', access: { staff: 'finance.read', client: 'finance.read' }, fixture: projects },
  { method: 'PUT', url: '/api/finance/project/:projectId/plan', access: { staff: 'finance.write' }, body: PLAN, fixture: projects },
  { method: 'POST', url: '/api/finance/project/:projectId/invoices', access: { staff: 'finance.write' }, body: LINES, ownStatus: 201, fixture: projects },
  { method: 'PATCH', url: '/api/invoices/:id', access: { staff: 'finance.write' }, body: { notes: 'Net 30' }, fixture: drafts },
  { method: 'DELETE', url: '/api/invoices/:id', access: { staff: 'finance.write' }, fixture: drafts },
  { method: 'POST', url: '/api/invoices/:id/issue', access: { staff: 'finance.write' }, fixture: drafts },
  {
    method: 'POST',
    url: '/api/invoices/:id/credit-notes',
    access: { staff: 'finance.write' },
    // A random line id on an existing invoice is a bad request: the invoice is found first.
    body: { reason: 'Correction', lines: [{ invoiceLineId: '00000000-0000-4000-8000-000000000000', amount: '1.00' }] },
    ownStatus: 400,
    fixture: issuedInvoices,
  },
  {
    method: 'POST',
    url: '/api/invoices/:id/payments',
    access: { staff: 'finance.write' },
    body: { amount: '10.00', receivedOn: '2026-11-20', method: 'bank_transfer', reference: 'TRF-2' },
    ownStatus: 201,
    fixture: issuedInvoices,
  },
  { method: 'POST', url: '/api/payments/:id/void', access: { staff: 'finance.write' }, body: { reason: 'Entered twice' }, fixture: issuedPayments },
  { method: 'GET', url: '/api/invoices/:id/pdf', access: { staff: 'finance.read', client: 'finance.read' }, fixture: issuedInvoices },
  { method: 'GET', url: '/api/credit-notes/:id/pdf', access: { staff: 'finance.read', client: 'finance.read' }, fixture: creditNotes },
  { method: 'GET', url: '/api/payments/:id/receipt', access: { staff: 'finance.read', client: 'finance.read' }, fixture: issuedPayments },
  { method: 'GET', url: '/api/finance/overview', access: { staff: 'finance.read' } },
  { method: 'GET', url: '/api/finance/invoices.csv', access: { staff: 'finance.read' } },
  { method: 'GET', url: '/api/finance/settings', access: { staff: 'settings.manage' } },
  { method: 'PUT', url: '/api/finance/settings', access: { staff: 'settings.manage' }, body: { invoicePrefix: 'INV', creditNotePrefix: 'CN', vatRate: '7.5', paymentTermsDays: 30, taxId: '1', bankName: 'B', bankAccountName: 'A', bankAccountNumber: '0123456789' } },
]);
