import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the dashboard counts and the public forms' token (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'GET', url: '/api/submissions/counts', access: { staff: 'submissions.read' } },
  // Registered by server/plugins/form-token.ts: every public form fetches it when shown.
  { method: 'GET', url: '/api/form-token', access: 'public' },
]);
