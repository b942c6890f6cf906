import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the audit log routes (see tests/helpers/access-table.ts): the
// 'audit.read' permission (owner and admin; decisions 270 and 272).
export default defineAccess([
  { method: 'GET', url: '/api/audit/events', access: { staff: 'audit.read' } },
  { method: 'GET', url: '/api/audit/filters', access: { staff: 'audit.read' } },
  { method: 'GET', url: '/api/audit/events.csv', access: { staff: 'audit.read' } },
]);
