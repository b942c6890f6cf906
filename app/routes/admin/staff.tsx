import { StaffList } from '../../features/staff/staff-list.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Staff' }, { name: 'robots', content: 'noindex, nofollow' }];

// Owners only (staff.manage): another role that opens the address sees the no-access state (decision 273).
export default function StaffRoute() {
  return (
    <ReviewShell title="Staff" permission="staff.manage">
      <StaffList />
    </ReviewShell>
  );
}
