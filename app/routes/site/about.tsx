import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'About',
    description: 'Who we are: our story, vision, mission, values, key strengths and team.',
    path: PATHS.about,
  });

export default function AboutPage() {
  return <PageHero title={'About Us'} subtitle={'Who we are: our story, vision, mission, values, key strengths and team.'} />;
}
