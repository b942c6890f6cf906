import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the clients routes (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'GET', url: '/api/users/clients', access: 'admin' },
  { method: 'POST', url: '/api/users/clients', access: 'admin' },
  { method: 'GET', url: '/api/users/clients/username-check', access: 'admin' },
  {
    method: 'PUT',
    url: '/api/users/clients/:id/status',
    access: 'admin',
    body: { status: 'in-progress' },
    fixture: async ({ clientA, clientB }) => ({ own: { id: clientA.id }, other: { id: clientB.id } }),
  },
  {
    method: 'PATCH',
    url: '/api/users/clients/:id',
    access: 'admin',
    body: { name: 'Corrected Name' },
    fixture: async ({ clientA, clientB }) => ({ own: { id: clientA.id }, other: { id: clientB.id } }),
  },
]);
