import { Link } from 'react-router';
import { RequireRole } from '../auth/require-role.tsx';

// Blog management is not built yet (no open issue covers it); its pages exist so the route table is
// whole, and they are guarded like every admin route.
export function BlogPlaceholder({ title, backTo, backLabel }: { title: string; backTo: string; backLabel: string }) {
  return (
    <RequireRole role="admin">
      <div className="mx-auto max-w-3xl px-4 py-16">
        <Link to={backTo} className="text-brand-700 underline dark:text-sky-300">
          {backLabel}
        </Link>
        <h1 className="mt-6 text-3xl font-bold">{title}</h1>
        <p className="mt-4 text-slate-700 dark:text-slate-300">Blog management is not available yet.</p>
      </div>
    </RequireRole>
  );
}
