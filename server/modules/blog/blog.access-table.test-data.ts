import { defineAccess } from '../../../tests/helpers/access-table.ts';

// Access expectations of the blog routes (see tests/helpers/access-table.ts). Staff manage posts and
// upload images; the renditions are public (banners and pictures of published posts).
const post = {
  title: 'Access check',
  author: 'Staff',
  category: 'Safety',
  excerpt: 'A short summary.',
  content: '<p>Body.</p>',
};

export default defineAccess([
  { method: 'GET', url: '/api/blog/posts', access: { staff: 'blog.write' } },
  { method: 'GET', url: '/api/blog/posts/:id', access: { staff: 'blog.write' } },
  { method: 'POST', url: '/api/blog/posts', access: { staff: 'blog.write' }, body: post },
  { method: 'PUT', url: '/api/blog/posts/:id', access: { staff: 'blog.write' }, body: { ...post, version: 1 } },
  { method: 'PUT', url: '/api/blog/posts/:id/visibility', access: { staff: 'blog.write' }, body: { visibility: 'hidden' } },
  { method: 'DELETE', url: '/api/blog/posts/:id', access: { staff: 'blog.write' } },
  { method: 'POST', url: '/api/blog/preview', access: { staff: 'blog.write' }, body: { content: '<p>Preview.</p>' } },
  // Without a multipart body a permitted caller is told what to send (415); blog.routes.test.ts uploads real images.
  { method: 'POST', url: '/api/blog/images', access: { staff: 'blog.write' } },
  { method: 'GET', url: '/api/blog/images/:imageId/:file', access: 'public' },
]);
