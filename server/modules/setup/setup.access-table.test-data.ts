import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the first-run set-up routes (decision 160): public, refused off the admin network inside.
export default defineAccess([
  { method: 'GET', url: '/api/setup/status', access: 'public' },
  { method: 'POST', url: '/api/setup/inspect', access: 'public', body: { token: 'not-a-real-set-up-token' } },
  {
    method: 'POST',
    url: '/api/setup/admin',
    access: 'public',
    body: { token: 'not-a-real-set-up-token', name: 'First Admin', email: 'first@example.test', password: 'a long enough pass phrase' },
  },
]);
