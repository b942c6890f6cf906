import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'How We Work',
    description: 'Our proven methodology delivers exceptional results through a transparent, step-by-step approach.',
    path: PATHS.howWeWork,
  });

export default function HowWeWorkPage() {
  return <PageHero title={'How We Work'} subtitle={'Our proven methodology delivers exceptional results through a transparent, step-by-step approach.'} />;
}
