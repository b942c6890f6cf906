import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the vendor registration routes (see tests/helpers/access-table.ts).
// Written by the accounts engineer from the routes' declarations; owners: add fixtures as needed.
export default defineAccess([
  { method: 'POST', url: '/api/vendors/applications', access: 'public' },
  { method: 'GET', url: '/api/vendors/applications', access: 'admin' },
  { method: 'GET', url: '/api/vendors/applications/:id', access: 'admin' },
  { method: 'PUT', url: '/api/vendors/applications/:id/status', access: 'admin', body: { status: 'under-review' } },
  { method: 'GET', url: '/api/vendors/applications/:id/documents/:documentId', access: 'admin' },
]);
