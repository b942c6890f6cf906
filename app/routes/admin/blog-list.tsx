import { BlogPlaceholder } from '../../features/blog/blog-placeholder.tsx';
import { PATHS } from '../../../common/paths.ts';

export const meta = () => [{ title: 'Blog Management' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function BlogListPage() {
  return <BlogPlaceholder title="Blog Management" backTo={PATHS.adminDashboard} backLabel="Back to dashboard" />;
}
