import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the newsletter routes (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: the footer box and the links of the newsletter mails (tokens prove the address).
  { method: 'POST', url: '/api/newsletter/subscribe', access: 'public' },
  { method: 'POST', url: '/api/newsletter/confirm', access: 'public' },
  { method: 'POST', url: '/api/newsletter/unsubscribe', access: 'public' },
  { method: 'GET', url: '/api/newsletter/subscribers', access: 'admin' },
  { method: 'GET', url: '/api/newsletter/subscribers/export', access: 'admin' },
]);
