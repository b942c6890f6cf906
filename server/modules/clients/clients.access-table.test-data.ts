import { eachClient } from '../../../tests/helpers/access-fixtures.ts';
import { defineAccess } from '../../../tests/helpers/access-table.ts';
import { createUser } from '../../../tests/helpers/test-app.ts';

// Archive and delete act on a client of their own, so the shared clients A and B stay signed in.
const freshClient = async ({ t }: { t: Parameters<typeof createUser>[0] }) => ({ own: { id: (await createUser(t, { role: 'client' })).id } });

// Access expectations of the clients routes (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'GET', url: '/api/users/clients', access: { staff: 'clients.read' } },
  { method: 'POST', url: '/api/users/clients', access: { staff: 'projects.assign' } },
  { method: 'GET', url: '/api/users/clients/username-check', access: { staff: 'projects.assign' } },
  { method: 'PUT', url: '/api/users/clients/:id/status', access: { staff: 'clients.write' }, body: { status: 'in-progress' }, fixture: eachClient('id') },
  { method: 'PATCH', url: '/api/users/clients/:id', access: { staff: 'clients.write' }, body: { name: 'Corrected Name' }, fixture: eachClient('id') },
  { method: 'POST', url: '/api/users/clients/:id/archive', access: { staff: 'projects.assign' }, fixture: freshClient },
  { method: 'POST', url: '/api/users/clients/:id/restore', access: { staff: 'projects.assign' }, fixture: freshClient },
  { method: 'DELETE', url: '/api/users/clients/:id', access: { staff: 'projects.assign' }, fixture: freshClient },
]);
