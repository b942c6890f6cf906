import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the company profile download (see tests/helpers/access-table.ts).
export default defineAccess([{ method: 'GET', url: '/api/company-profile.pdf', access: 'public' }]);
