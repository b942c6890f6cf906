import { VendorApplicationsList } from '../../features/vendors/vendor-applications-list.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Vendor Applications' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function VendorApplicationsPage() {
  return (
    <ReviewShell title="Vendor Applications" permission="submissions.read">
      <VendorApplicationsList />
    </ReviewShell>
  );
}
