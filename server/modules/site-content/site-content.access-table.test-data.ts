import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the website content routes (issue 24): the 'content.write' permission
// (owner, admin and editor; decision 272). A random uuid is no section's name, so a permitted
// caller's generic call is refused by validation (400); the API tests reach the sections themselves.
const access = { staff: 'content.write' } as const;
const missingStatus = 400;
export default defineAccess([
  { method: 'GET', url: '/api/site-content/sections', access },
  { method: 'GET', url: '/api/site-content/sections/:section', access, missingStatus },
  { method: 'PUT', url: '/api/site-content/sections/:section/draft', access, missingStatus, body: { version: 1, document: {} } },
  { method: 'POST', url: '/api/site-content/sections/:section/publish', access, missingStatus, body: { version: 1 } },
  { method: 'PUT', url: '/api/site-content/sections/:section/schedule', access, missingStatus, body: { version: 1, publishAt: '2030-01-01T00:00:00Z' } },
  { method: 'DELETE', url: '/api/site-content/sections/:section/schedule', access, missingStatus },
  { method: 'GET', url: '/api/site-content/sections/:section/revisions', access, missingStatus },
  { method: 'GET', url: '/api/site-content/sections/:section/revisions/:id', access, missingStatus },
  { method: 'POST', url: '/api/site-content/sections/:section/revisions/:id/restore', access, missingStatus, body: { version: 1 } },
  // Decision 289: a draft on its real page (the test build has no pages, hence 503 to a permitted caller: site-content-runtime.test.ts renders it).
  { method: 'GET', url: '/preview/:section', access, missingStatus },
]);
