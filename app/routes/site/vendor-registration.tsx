import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Vendor Registration',
    description: 'Register your company as a vendor or supplier.',
    path: PATHS.vendorRegistration,
  });

export default function VendorRegistrationPage() {
  return <PageHero title={'Vendor Registration'} subtitle={'Register your company as a vendor or supplier.'} />;
}
