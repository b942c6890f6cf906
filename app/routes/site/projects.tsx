import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Our Projects',
    description: 'A showcase of infrastructure, oil and gas and marine projects we have delivered.',
    path: PATHS.projects,
  });

export default function ProjectsPage() {
  return <PageHero title={'Our Projects'} subtitle={'A showcase of infrastructure, oil and gas and marine projects we have delivered.'} />;
}
