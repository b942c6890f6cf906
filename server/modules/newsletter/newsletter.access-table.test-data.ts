import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the newsletter routes (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: the footer box and the links of the newsletter mails (tokens prove the address).
  { method: 'POST', url: '/api/newsletter/subscribe', access: 'public' },
  { method: 'POST', url: '/api/newsletter/confirm', access: 'public' },
  { method: 'POST', url: '/api/newsletter/unsubscribe', access: 'public' },
  // The footer box's post without JavaScript (decision 176): answered with a page, not JSON.
  { method: 'POST', url: '/newsletter/subscribe', access: 'public' },
  { method: 'GET', url: '/api/newsletter/subscribers', access: { staff: 'newsletter.write' } },
  { method: 'GET', url: '/api/newsletter/subscribers/export', access: { staff: 'newsletter.write' } },
  // Staff write and send newsletters; the bodies are valid so permitted calls get past validation.
  { method: 'GET', url: '/api/newsletter/issues', access: { staff: 'newsletter.write' } },
  { method: 'POST', url: '/api/newsletter/issues/test', access: { staff: 'newsletter.write' }, body: { subject: 'Access check', body: 'Hello.' } },
  {
    method: 'POST',
    url: '/api/newsletter/issues',
    access: { staff: 'newsletter.write' },
    body: { subject: 'Access check', body: 'Hello.', idempotencyKey: '6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b' },
  },
]);
