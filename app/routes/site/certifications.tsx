import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Certifications',
    description: 'Our certified management systems, licences and regulatory compliance.',
    path: PATHS.certifications,
  });

export default function CertificationsPage() {
  return <PageHero title={'Certifications & Licenses'} subtitle={'Our certified management systems, licences and regulatory compliance.'} />;
}
