import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { clsx } from 'clsx';
import { DashboardHeader } from '../../components/portal/dashboard-header.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { useLogout } from '../../features/auth/use-logout.ts';
import { PATHS } from '../../../common/paths.ts';

// Not a route: the frame of the staff pages that review what visitors sent, and of blog management (admin only).
const LINKS = [
  { to: PATHS.adminDashboard, label: 'Dashboard', end: true },
  { to: PATHS.adminVendorApplications, label: 'Vendor applications', end: false },
  { to: PATHS.adminContactMessages, label: 'Contact messages', end: true },
  { to: PATHS.adminNewsletterSubscribers, label: 'Subscribers', end: true },
  { to: PATHS.adminNewsletter, label: 'Newsletter', end: true },
  { to: PATHS.blogList, label: 'Blog', end: false },
  { to: PATHS.adminChat, label: 'Support chat', end: true },
];

function Shell({ title, children }: { title: string; children: ReactNode }) {
  const { data: user } = useCurrentUser();
  const { logout, pending } = useLogout();
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <DashboardHeader title={title} userName={user?.name} onLogout={() => void logout()} loggingOut={pending}>
        {LINKS.map((l) => (
          <NavLink key={l.to} to={l.to} end={l.end} className={({ isActive }) => clsx(buttonClass('ghost'), isActive && 'underline decoration-2 underline-offset-4')}>
            {l.label}
          </NavLink>
        ))}
      </DashboardHeader>
      <div className="mx-auto max-w-screen-xl px-4 py-6">{children}</div>
    </div>
  );
}

export function ReviewShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <RequireRole role="admin">
      <Shell title={title}>{children}</Shell>
    </RequireRole>
  );
}
