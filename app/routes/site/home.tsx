import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Home',
    description: 'Oil and gas, civil, mechanical and marine engineering, construction and logistics services across Nigeria.',
    path: PATHS.home,
  });

export default function HomePage() {
  return <PageHero title={'Engineering, construction and logistics'} subtitle={'Oil and gas, civil, mechanical and marine engineering, construction and logistics services across Nigeria.'} />;
}
