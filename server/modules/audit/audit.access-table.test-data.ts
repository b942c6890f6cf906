import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the audit log routes (see tests/helpers/access-table.ts). Decision 270:
// staff only today; the 'audit.read' permission (owner, admin) when roles land.
export default defineAccess([
  { method: 'GET', url: '/api/audit/events', access: 'admin' },
  { method: 'GET', url: '/api/audit/filters', access: 'admin' },
  { method: 'GET', url: '/api/audit/events.csv', access: 'admin' },
]);
