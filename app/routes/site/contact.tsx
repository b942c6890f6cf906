import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Contact',
    description: 'Talk to us about your project. We reply within 24 hours.',
    path: PATHS.contact,
  });

export default function ContactPage() {
  return <PageHero title={'Contact Us'} subtitle={'Talk to us about your project. We reply within 24 hours.'} />;
}
