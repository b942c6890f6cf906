import { Link } from 'react-router';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { PATHS } from '../../lib/paths.ts';

export const meta = () => [{ title: 'New Blog Post' }, { name: 'robots', content: 'noindex, nofollow' }];

// Blog management is not built yet (no open issue covers it); the page exists so the route table is
// whole, and it is guarded like every admin route.
export default function BlogNewPage() {
  return (
    <RequireRole role="admin">
      <div className="mx-auto max-w-3xl px-4 py-16">
        <Link to={PATHS.blogList} className="text-brand-700 underline dark:text-sky-300">
          Back to blog posts
        </Link>
        <h1 className="mt-6 text-3xl font-bold">New Blog Post</h1>
        <p className="mt-4 text-slate-700 dark:text-slate-300">Blog management is not available yet.</p>
      </div>
    </RequireRole>
  );
}
