import { RequireRole } from '../../features/auth/require-role.tsx';
import { SectionList } from '../../features/site-content/section-list.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Website' }, { name: 'robots', content: 'noindex, nofollow' }];

// Issue 24: staff edit every section of the public site (owners, admins and editors; the API checks 'content.write').
export default function WebsiteRoute() {
  return (
    <RequireRole role="admin">
      <AdminPageGuard title="Website" permission="content.write">
        <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
          <AdminFrameHeader title="Website" />
          <div className="mx-auto max-w-screen-lg px-4 py-6">
            <SectionList />
          </div>
        </div>
      </AdminPageGuard>
    </RequireRole>
  );
}
