import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the submissions routes and the public forms' token (server/plugins/form-token.ts).
export default defineAccess([
  { method: 'GET', url: '/api/submissions/counts', access: 'admin' },
  { method: 'GET', url: '/api/form-token', access: 'public' },
]);
