import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the media library (see tests/helpers/access-table.ts): owners, admins and
// editors manage it (content.write); the renditions are public, shown on the pages.
const CONTENT = { staff: 'content.write' } as const;

export default defineAccess([
  { method: 'GET', url: '/api/media', access: CONTENT },
  // Without a multipart body a permitted caller is told what to send (415); media.routes.test.ts uploads real images.
  { method: 'POST', url: '/api/media', access: CONTENT },
  { method: 'GET', url: '/api/media/:id', access: CONTENT },
  { method: 'PATCH', url: '/api/media/:id', access: CONTENT, body: { altText: 'Access check' } },
  { method: 'DELETE', url: '/api/media/:id', access: CONTENT },
  { method: 'GET', url: '/api/media/:id/:file', access: 'public' },
]);
