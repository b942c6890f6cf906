import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the support chat (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: any visitor may ask (per-address limits) and hand the conversation to staff
  // (the contact form's guard and limit).
  { method: 'POST', url: '/api/chat', access: 'public', body: { question: 'What services do you offer?' } },
  { method: 'POST', url: '/api/chat/handoff', access: 'public' },
  { method: 'GET', url: '/api/chat/conversations', access: { staff: 'support.answer' } },
]);
