import { Link } from 'react-router';
import { ARTICLES_TEXT, fallbackImageFor, type ArticleCard } from '../../../common/schemas/articles.ts';
import { formatLongDate } from '../../../common/dates.ts';
import { PATHS } from '../../../common/paths.ts';
import { ArticlePicture } from './article-image.tsx';

/** One card of /articles: picture, source badge, title (2 lines), description (3 lines), date, 'Read More'. */
export function ArticleCardView({ article, index }: { article: ArticleCard; index: number }) {
  return (
    <li className="relative flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md focus-within:ring-2 focus-within:ring-brand-600 dark:border-slate-700 dark:bg-slate-900">
      <ArticlePicture
        image={article.image}
        fallback={fallbackImageFor(index)}
        alt=""
        sizes="(min-width: 1024px) 400px, (min-width: 768px) 50vw, 100vw"
        priority={index < 3}
        className="aspect-video h-auto w-full"
      />
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="rounded-full bg-brand-100 px-3 py-1 font-semibold text-brand-800 dark:bg-brand-800 dark:text-white">
            {article.source || ARTICLES_TEXT.cardSourceFallback}
          </span>
          <time dateTime={article.publishedAt} className="text-slate-700 dark:text-slate-300">
            {formatLongDate(article.publishedAt)}
          </time>
        </div>
        <h2 className="mt-3 line-clamp-2 text-lg font-semibold">{article.title}</h2>
        <p className="mt-2 line-clamp-3 text-slate-700 dark:text-slate-300">{article.description || ARTICLES_TEXT.descriptionFallback}</p>
        <Link
          to={PATHS.article(article.id)}
          className="mt-auto pt-4 font-semibold text-brand-700 underline-offset-4 after:absolute after:inset-0 hover:underline dark:text-sky-300"
        >
          {ARTICLES_TEXT.readMore}
          <span className="sr-only">: {article.title}</span>
        </Link>
      </div>
    </li>
  );
}
