import { BackToBlogList } from '../../features/blog/blog-edit-page.tsx';
import { BlogPostForm } from '../../features/blog/blog-post-form.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'New Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogNewPage() {
  return (
    <ReviewShell title="New Blog Post">
      <BackToBlogList />
      <BlogPostForm post={null} />
    </ReviewShell>
  );
}
