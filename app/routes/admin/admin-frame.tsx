import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import {
  ClipboardList,
  Landmark,
  Receipt,
  History,
  FolderKanban,
  Globe,
  Images,
  Mail,
  Mails,
  MessageCircle,
  Newspaper,
  ShieldCheck,
  UserCog,
  Users,
} from 'lucide-react';
import { AdminHeader } from '../../components/admin/admin-header.tsx';
import { AdminNav, type AdminNavItem } from '../../components/admin/admin-nav.tsx';
import { AccountButton } from '../../features/auth/account-dialog.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { useLogout } from '../../features/auth/use-logout.ts';
import { useUnreadCounts } from '../../features/messages/messages-api.ts';
import { useSubmissionCounts } from '../../features/submissions/submission-counts.tsx';
import { SearchBox } from '../../features/search/search-box.tsx';
import { PATHS } from '../../../common/paths.ts';
import { can, type Permission } from '../../../common/permissions.ts';
import { NoAccess, RequirePermission } from '../../features/auth/require-permission.tsx';

// Not a route: the header of every admin screen, with the one navigation (issue 22, decision 254).
// It replaces the three menus the dashboard, the security page and the review pages each had.

/** The admin places in order, each with the permission it needs (decision 273). */
const PLACES: ReadonlyArray<Omit<AdminNavItem, 'count' | 'countLabel'> & { permission: Permission }> = [
  { to: PATHS.adminDashboard, label: 'Clients & projects', icon: FolderKanban, end: true, permission: 'projects.read' },
  {
    to: PATHS.adminVendorApplications,
    label: 'Vendor applications',
    icon: ClipboardList,
    permission: 'submissions.read',
  },
  { to: PATHS.adminContactMessages, label: 'Contact messages', icon: Mail, end: true, permission: 'submissions.read' },
  {
    to: PATHS.adminNewsletterSubscribers,
    label: 'Subscribers',
    icon: Users,
    end: true,
    permission: 'newsletter.write',
  },
  { to: PATHS.adminNewsletter, label: 'Newsletter', icon: Mails, end: true, permission: 'newsletter.write' },
  { to: PATHS.blogList, label: 'Blog management', icon: Newspaper, permission: 'blog.write' },
  { to: PATHS.adminWebsite, label: 'Website', icon: Globe, permission: 'content.write' },
  { to: PATHS.adminMedia, label: 'Media', icon: Images, end: true, permission: 'content.write' },
  { to: PATHS.adminChat, label: 'Support chat', icon: MessageCircle, end: true, permission: 'support.answer' },
  // The payment plan (issue 26): the overview for those who read finance, the invoice settings for those who manage settings.
  { to: PATHS.adminFinance, label: 'Finance', icon: Landmark, end: true, permission: 'finance.read' },
  { to: PATHS.adminFinanceSettings, label: 'Invoice settings', icon: Receipt, end: true, permission: 'settings.manage' },
  // The sign-in audit is an audit: read by those who read the audit log.
  { to: PATHS.adminSecurity, label: 'Security', icon: ShieldCheck, end: true, permission: 'audit.read' },
  { to: PATHS.adminAuditLog, label: 'Audit log', icon: History, end: true, permission: 'audit.read' },
  { to: PATHS.adminStaff, label: 'Staff', icon: UserCog, end: true, permission: 'staff.manage' },
];

/** The places the signed-in staff member's role may use, in order. */
function useAllowedPlaces() {
  const { data: user } = useCurrentUser();
  return PLACES.filter((place) => can(user, place.permission));
}

/** The admin places the role may use, with what waits in each from the counts the dashboard already reads. */
function useAdminNavItems(): AdminNavItem[] {
  const { data: user } = useCurrentUser();
  const unread = useUnreadCounts(can(user, 'projects.read')).data;
  const submissions = useSubmissionCounts(can(user, 'submissions.read')).data;
  const counts: Partial<Record<string, Pick<AdminNavItem, 'count' | 'countLabel'>>> = {
    [PATHS.adminDashboard]: { count: unread?.total, countLabel: 'unread messages' },
    [PATHS.adminVendorApplications]: { count: submissions?.newApplications, countLabel: 'new' },
    [PATHS.adminContactMessages]: { count: submissions?.unreadMessages, countLabel: 'unread' },
  };
  return useAllowedPlaces().map(({ permission: _permission, ...place }) => ({ ...place, ...counts[place.to] }));
}

/**
 * An admin page that needs a permission: the page itself, or (direct navigation by a role without
 * it) the frame with the no-access state and the places the role may use.
 */
export function AdminPageGuard({
  title,
  permission,
  landing = false,
  children,
}: {
  title: string;
  permission: Permission;
  /** The page sign-in lands on: a role without it goes on to its first place instead (a link with a query still explains). */
  landing?: boolean;
  children: ReactNode;
}) {
  const places = useAllowedPlaces();
  const { search } = useLocation();
  return (
    <RequirePermission
      permission={permission}
      denied={
        landing && !search && places[0] ? (
          <Navigate to={places[0].to} replace />
        ) : (
          <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
            <AdminFrameHeader title={title} />
            <div className="px-4">
              <NoAccess places={places} />
            </div>
          </div>
        )
      }
    >
      {children}
    </RequirePermission>
  );
}

/** The header of an admin screen: its title, the search box, theme, Logout and the admin navigation. */
export function AdminFrameHeader({ title }: { title: string }) {
  const { data: user } = useCurrentUser();
  const { logout, pending } = useLogout();
  const items = useAdminNavItems();
  return (
    <AdminHeader
      title={title}
      userName={user?.name}
      onLogout={() => void logout()}
      loggingOut={pending}
      search={can(user, 'projects.read') ? <SearchBox scope="admin" /> : null}
      nav={<AdminNav items={items} extra={<AccountButton role="admin" />} />}
    />
  );
}
