import { Link, useParams } from 'react-router';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = ({ params }: { params: { id?: string } }) =>
  pageMeta({ title: 'Article', description: 'An article from industry publications.', path: PATHS.article(params.id ?? '') });

export default function ArticleDetailPage() {
  const { id } = useParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <Link to={PATHS.articles} className="text-brand-700 underline dark:text-sky-300">
        Back to News
      </Link>
      <h1 className="mt-6 text-3xl font-bold">Article</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{id}</p>
    </div>
  );
}
