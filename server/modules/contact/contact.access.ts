import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the contact routes (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'POST', url: '/api/contact', access: 'public' },
  { method: 'GET', url: '/api/contact/messages', access: 'admin' },
  { method: 'PUT', url: '/api/contact/messages/:id/read', access: 'admin', body: { isRead: true } },
]);
