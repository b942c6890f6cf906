import { BlogPostList } from '../../features/blog/blog-post-list.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Blog Management' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogListPage() {
  return (
    <ReviewShell title="Blog Management" permission="blog.write">
      <BlogPostList />
    </ReviewShell>
  );
}
