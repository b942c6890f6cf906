import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Articles',
    description: 'Latest updates from industry publications',
    path: PATHS.articles,
  });

export default function ArticlesPage() {
  return <PageHero title={'Articles'} subtitle={'Latest updates from industry publications'} />;
}
