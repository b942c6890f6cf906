import { BlogPlaceholder } from '../../features/blog/blog-placeholder.tsx';
import { PATHS } from '../../../common/paths.ts';

export const meta = () => [{ title: 'New Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogNewPage() {
  return <BlogPlaceholder title="New Blog Post" backTo={PATHS.blogList} backLabel="Back to blog posts" />;
}
