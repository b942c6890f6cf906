import { PageHero } from '../../components/layout/page-placeholder.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../lib/paths.ts';

export const meta = () =>
  pageMeta({
    title: 'Project Gallery',
    description: 'Photographs of our work on sites across Nigeria.',
    path: PATHS.gallery,
  });

export default function GalleryPage() {
  return <PageHero title={'Project Gallery'} subtitle={'Photographs of our work on sites across Nigeria.'} />;
}
