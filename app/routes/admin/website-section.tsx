import { Link, useParams } from 'react-router';
import { SECTION_TITLES, isSectionKey } from '../../../common/content/sections.ts';
import { PATHS } from '../../../common/paths.ts';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { EmptyState } from '../../components/portal/empty-state.tsx';
import { ImageField } from '../../features/media/image-field.tsx';
import { SectionEditor } from '../../features/site-content/section-editor.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Edit website section' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function WebsiteSectionRoute() {
  const { section = '' } = useParams();
  const known = isSectionKey(section);
  return (
    <RequireRole role="admin">
      <AdminPageGuard title="Website" permission="content.write">
        <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
          <AdminFrameHeader title={known ? SECTION_TITLES[section] : 'Unknown section'} />
          <div className="mx-auto max-w-screen-lg px-4 py-6">
            <p className="mb-2">
              <Link
                to={PATHS.adminWebsite}
                className="inline-flex min-h-11 items-center text-brand-800 underline underline-offset-4 dark:text-sky-200"
              >
                All sections
              </Link>
            </p>
            {known ? (
              <SectionEditor section={section} imageField={ImageField} />
            ) : (
              <EmptyState title="No such section" description="Choose a section from the list." />
            )}
          </div>
        </div>
      </AdminPageGuard>
    </RequireRole>
  );
}
