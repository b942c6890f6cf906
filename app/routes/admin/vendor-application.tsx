import { useParams } from 'react-router';
import { VendorApplicationDetailView } from '../../features/vendors/vendor-application-detail.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Vendor Application' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function VendorApplicationPage() {
  const { id = '' } = useParams();
  return (
    <ReviewShell title="Vendor Application" permission="submissions.read">
      <VendorApplicationDetailView id={id} />
    </ReviewShell>
  );
}
