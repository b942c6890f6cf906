import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Services',
    description: 'Six engineering and logistics services, from oil and gas to marine logistics.',
    path: PATHS.services,
  });

export default function ServicesPage() {
  return <PageHero title={'Our Services'} subtitle={'Six engineering and logistics services, from oil and gas to marine logistics.'} />;
}
