import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Our Equipment',
    description: 'The fleet of owned equipment we bring to every project.',
    path: PATHS.equipments,
  });

export default function EquipmentsPage() {
  return <PageHero title={'Our Equipment'} subtitle={'The fleet of owned equipment we bring to every project.'} />;
}
