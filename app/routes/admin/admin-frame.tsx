import { ClipboardList, Globe, History, FolderKanban, Mail, Mails, MessageCircle, Newspaper, ShieldCheck, Users } from 'lucide-react';
import { AdminHeader } from '../../components/admin/admin-header.tsx';
import { AdminNav, type AdminNavItem } from '../../components/admin/admin-nav.tsx';
import { AccountButton } from '../../features/auth/account-dialog.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { useLogout } from '../../features/auth/use-logout.ts';
import { useUnreadCounts } from '../../features/messages/messages-api.ts';
import { useSubmissionCounts } from '../../features/submissions/submission-counts.tsx';
import { SearchBox } from '../../features/search/search-box.tsx';
import { PATHS } from '../../../common/paths.ts';

// Not a route: the header of every admin screen, with the one navigation (issue 22, decision 254).
// It replaces the three menus the dashboard, the security page and the review pages each had.

/** The admin places in order, with what waits in each from the counts the dashboard already reads. */
function useAdminNavItems(): AdminNavItem[] {
  const unread = useUnreadCounts().data;
  const submissions = useSubmissionCounts().data;
  return [
    { to: PATHS.adminDashboard, label: 'Clients & projects', icon: FolderKanban, end: true, count: unread?.total, countLabel: 'unread messages' },
    { to: PATHS.adminVendorApplications, label: 'Vendor applications', icon: ClipboardList, count: submissions?.newApplications, countLabel: 'new' },
    { to: PATHS.adminContactMessages, label: 'Contact messages', icon: Mail, end: true, count: submissions?.unreadMessages, countLabel: 'unread' },
    { to: PATHS.adminNewsletterSubscribers, label: 'Subscribers', icon: Users, end: true },
    { to: PATHS.adminNewsletter, label: 'Newsletter', icon: Mails, end: true },
    { to: PATHS.blogList, label: 'Blog management', icon: Newspaper },
    { to: PATHS.adminChat, label: 'Support chat', icon: MessageCircle, end: true },
    { to: PATHS.adminWebsite, label: 'Website', icon: Globe },
    { to: PATHS.adminSecurity, label: 'Security', icon: ShieldCheck, end: true },
    { to: PATHS.adminAuditLog, label: 'Audit log', icon: History, end: true },
  ];
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
      search={<SearchBox scope="admin" />}
      nav={<AdminNav items={items} extra={<AccountButton role="admin" />} />}
    />
  );
}
