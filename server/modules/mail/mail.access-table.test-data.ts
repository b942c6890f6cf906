import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the mail status (see tests/helpers/access-table.ts): staff only, it tells how the server is set up.
export default defineAccess([{ method: 'GET', url: '/api/mail/status', access: { staff: 'settings.manage' } }]);
