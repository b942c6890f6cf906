import { BlogPlaceholder } from '../../features/blog/blog-placeholder.tsx';
import { PATHS } from '../../../common/paths.ts';

export const meta = () => [{ title: 'Edit Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogEditPage() {
  return <BlogPlaceholder title="Edit Blog Post" backTo={PATHS.blogList} backLabel="Back to blog posts" />;
}
