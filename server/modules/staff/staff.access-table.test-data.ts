import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the staff screen's routes (see tests/helpers/access-table.ts): the
// 'staff.manage' permission, owners only (decision 275).
export default defineAccess([
  { method: 'GET', url: '/api/staff', access: { staff: 'staff.manage' } },
  { method: 'POST', url: '/api/staff', access: { staff: 'staff.manage' } },
  { method: 'PATCH', url: '/api/staff/:id/role', access: { staff: 'staff.manage' }, body: { role: 'editor' } },
  { method: 'PATCH', url: '/api/staff/:id/status', access: { staff: 'staff.manage' }, body: { status: 'deactivated' } },
]);
