import { BackToBlogList } from '../../features/blog/blog-edit-page.tsx';
import { BlogPostForm } from '../../features/blog/blog-post-form.tsx';
import { ReviewShell } from './review-shell.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';

export const meta = () => [{ title: 'New Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

/** A new post is signed by the signed-in staff member unless they change it. */
function NewPostForm() {
  const { data: user } = useCurrentUser();
  const author = user?.name ?? '';
  return <BlogPostForm key={author} post={null} defaultAuthor={author} />;
}

export default function BlogNewPage() {
  return (
    <ReviewShell title="New Blog Post" permission="blog.write">
      <BackToBlogList />
      <NewPostForm />
    </ReviewShell>
  );
}
