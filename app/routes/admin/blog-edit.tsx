import { useParams } from 'react-router';
import { BlogEditPage } from '../../features/blog/blog-edit-page.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Edit Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogEditRoute() {
  const { id = '' } = useParams();
  return (
    <ReviewShell title="Edit Blog Post" permission="blog.write">
      <BlogEditPage id={id} />
    </ReviewShell>
  );
}
