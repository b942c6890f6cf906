import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the search routes (see tests/helpers/access-table.ts). That a client's
// search never reaches another client's data is proven with real data in search.routes.test.ts.
export default defineAccess([
  { method: 'GET', url: '/api/search', access: { staff: 'projects.read' } },
  { method: 'GET', url: '/api/search/mine', access: 'client' },
]);
