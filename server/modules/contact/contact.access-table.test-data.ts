import { defineAccess } from '../../../tests/helpers/access-table.ts';
import { createContactMessage } from './contact.service.ts';

// Access expectations of the contact routes (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: the contact form (the form guard keeps bots out).
  { method: 'POST', url: '/api/contact', access: 'public' },
  { method: 'GET', url: '/api/contact/messages', access: { staff: 'submissions.read' } },
  {
    method: 'PUT',
    url: '/api/contact/messages/:id/read',
    access: { staff: 'submissions.read' },
    body: { isRead: true },
    fixture: async (ctx) => {
      const { id } = await createContactMessage(ctx.t.app, { name: 'A', email: 'a@example.test', phone: '', company: '', message: 'Hi' }, '192.0.2.1');
      return { own: { id } };
    },
  },
]);
