import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the CSP report route (see tests/helpers/access-table.ts).
export default defineAccess([
  // Public by design: browsers send the reports without asking who the reader is.
  {
    method: 'POST',
    url: '/api/csp-report',
    access: 'public',
    body: { 'csp-report': { 'effective-directive': 'script-src-elem', 'blocked-uri': 'inline' } },
  },
]);
