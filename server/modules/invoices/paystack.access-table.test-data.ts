import { defineAccess } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';
import { invoiceOn } from '../../../tests/helpers/issued-invoice.ts';

// Access expectations of the Paystack routes (decision 298; see tests/helpers/access-table.ts).
export default defineAccess([
  {
    method: 'POST',
    url: '/api/invoices/:id/pay-online',
    access: { client: 'finance.read' },
    // The authorisation test's app has no Paystack key: client A's own issued invoice is found, then
    // refused because online payment is not offered (409); client B's answers 404 like a missing one.
    ownStatus: 409,
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { id: (await invoiceOn(ctx.t, a._id)).id }, other: { id: (await invoiceOn(ctx.t, b._id)).id } };
    },
  },
  // Public by design: Paystack's servers call it; the signature over the raw body is the authentication.
  { method: 'POST', url: '/api/paystack/webhook', access: 'public', body: { event: 'charge.success', data: { reference: 'inv-unknown' } } },
]);
