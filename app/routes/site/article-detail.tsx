import { ArrowLeft, ExternalLink } from 'lucide-react';
import { data, Link } from 'react-router';
import type { Route } from './+types/article-detail';
import {
  ARTICLE_DETAIL_FALLBACK_IMAGE,
  ARTICLES_TEXT,
  PAGE_CACHE_UNTIL_HEADER,
  fallbackImageFor,
  type ArticleDetail,
} from '../../../common/schemas/articles.ts';
import { formatLongDate } from '../../../common/dates.ts';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { safeHref, siteLink } from '../../../common/schemas/link-check.ts';
import { articlesReaderFrom, loggerFrom } from '../../features/articles/articles-context.ts';
import { ArticlePicture } from '../../features/articles/article-image.tsx';
import { enhanceHistoryBack } from '../../enhance/history-back.ts';
import { useEnhance } from '../../lib/use-enhance.ts';
import { ARTICLE_BODY_CLASS } from '../../components/layout/article-body-class.ts';
import { NO_HYDRATION } from '../../lib/hydration.ts';

type LoaderData = { state: 'ok'; article: ArticleDetail } | { state: 'not-found' } | { state: 'error'; message: string };

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const { data: article, validUntil } = await articlesReaderFrom(context).findArticle(params.id);
    const headers = { [PAGE_CACHE_UNTIL_HEADER]: validUntil.toISOString() };
    // Unknown, hidden, draft and not-yet-due posts are all simply not found: a real 404.
    if (!article) return data<LoaderData>({ state: 'not-found' }, { status: 404, headers });
    return data<LoaderData>({ state: 'ok', article }, { headers });
  } catch (err) {
    loggerFrom(context)?.error({ err }, 'article failed to load');
    return data<LoaderData>({ state: 'error', message: ARTICLES_TEXT.articleFailed }, { status: 500 });
  }
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

function socialImage(article: ArticleDetail) {
  if (article.image?.kind === 'own') return { url: article.image.src, alt: article.title, width: article.image.width, height: article.image.height };
  if (article.image?.kind === 'remote') return { url: article.image.src, alt: article.title };
  return undefined;
}

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

export const meta = ({ loaderData, params, matches }: Omit<Route.MetaArgs, 'matches'> & { matches: MetaMatches }): Route.MetaDescriptors => {
  const company = companyOfMatches(matches);
  if (loaderData?.state !== 'ok') {
    const title = loaderData?.state === 'error' ? ARTICLES_TEXT.articleFailed : ARTICLES_TEXT.notFound;
    return pageMeta(company, { title, description: title, path: PATHS.article(params.id), noindex: true });
  }
  const a = loaderData.article;
  const path = PATHS.article(a.id);
  const url = siteLink(company.siteUrl, path);
  const image = socialImage(a);
  const description = (a.description ?? ARTICLES_TEXT.descriptionFallback).slice(0, 300);
  const publisher = { '@type': 'Organization', name: company.name, logo: { '@type': 'ImageObject', url: siteLink(company.siteUrl, '/favicon.svg') } };
  return pageMeta(company, {
    title: a.title,
    description,
    path,
    type: 'article',
    image,
    // Industry news is another publication's story: readers may see it here, search engines should index the original.
    noindex: a.kind === 'news',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: a.title.slice(0, 110),
      description,
      datePublished: a.publishedAt,
      ...(a.updatedAt ? { dateModified: a.updatedAt } : {}),
      mainEntityOfPage: { '@type': 'WebPage', '@id': url },
      url,
      ...(image ? { image: [siteLink(company.siteUrl, image.url)] } : {}),
      author: a.kind === 'post' ? { '@type': 'Person', name: a.author ?? company.name } : { '@type': 'Organization', name: a.source ?? ARTICLES_TEXT.detailSourceFallback },
      publisher: a.kind === 'post' ? publisher : { '@type': 'Organization', name: a.source ?? ARTICLES_TEXT.detailSourceFallback },
      ...(a.category ? { articleSection: a.category } : {}),
    },
  });
};

const backLink =
  'inline-flex items-center gap-2 rounded-md px-1 py-2 font-semibold text-brand-700 hover:underline dark:text-sky-300';

function BackToNews() {
  return (
    <Link to={PATHS.articles} className={backLink}>
      <ArrowLeft className="size-4" aria-hidden="true" />
      {ARTICLES_TEXT.backToNews}
    </Link>
  );
}

/** 'Return' goes back one page (specification); without JavaScript, or with no page to go back to, it opens the list. */
function ReturnButton() {
  const ref = useEnhance<HTMLAnchorElement>(enhanceHistoryBack);
  return (
    <Link
      ref={ref}
      to={PATHS.articles}
      data-module="history-back"
      className="mt-6 inline-block rounded-md bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800"
    >
      Return
    </Link>
  );
}

function RelatedList({ article }: { article: ArticleDetail }) {
  if (!article.related.length) return null;
  const source = article.source ?? ARTICLES_TEXT.detailSourceFallback;
  return (
    <section aria-labelledby="more-from" className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
      <h2 id="more-from" className="text-lg font-semibold">
        More from {source}
      </h2>
      <ul className="mt-4 space-y-4">
        {article.related.map((r, i) => (
          <li key={r.id}>
            <Link to={PATHS.article(r.id)} className="group flex gap-3">
              <ArticlePicture image={r.image} fallback={fallbackImageFor(i)} alt="" sizes="96px" className="h-16 w-24 shrink-0 rounded-md" />
              <span className="min-w-0">
                <span className="line-clamp-2 font-medium group-hover:underline">{r.title}</span>
                <time dateTime={r.publishedAt} className="mt-1 block text-sm text-slate-700 dark:text-slate-300">
                  {formatLongDate(r.publishedAt)}
                </time>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ArticleView({ article }: { article: ArticleDetail }) {
  const source = article.source ?? ARTICLES_TEXT.detailSourceFallback;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <BackToNews />
      <div className="mt-4 grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <article>
          <ArticlePicture
            image={article.image}
            fallback={ARTICLE_DETAIL_FALLBACK_IMAGE}
            alt={article.title}
            sizes="(min-width: 1024px) 880px, 100vw"
            priority
            className="aspect-video h-auto w-full rounded-xl"
          />
          <div className="mt-6 flex flex-wrap items-center gap-3 text-sm">
            <span className="rounded-full bg-brand-100 px-3 py-1 font-semibold text-brand-800 dark:bg-brand-800 dark:text-white">{source}</span>
            <time dateTime={article.publishedAt} className="text-slate-700 dark:text-slate-300">
              {formatLongDate(article.publishedAt)}
            </time>
            {article.category ? <span className="text-slate-700 dark:text-slate-300">{article.category}</span> : null}
          </div>
          <h1 className="mt-4 text-3xl font-bold sm:text-4xl">{article.title}</h1>
          {article.kind === 'post' && article.author ? <p className="mt-2 text-slate-700 dark:text-slate-300">By {article.author}</p> : null}
          {/* Sanitised on the server with the specification's allowlist, when stored or fetched and again when read. */}
          <div className={`mt-8 ${ARTICLE_BODY_CLASS}`} dangerouslySetInnerHTML={{ __html: article.bodyHtml }} />
          {safeHref(article.url) ? (
            <a
              href={safeHref(article.url)}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-8 inline-flex items-center gap-2 font-semibold text-brand-700 underline dark:text-sky-300"
            >
              Read original article on {article.source || ARTICLES_TEXT.originalSourceFallback}
              <ExternalLink className="size-4" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : null}
        </article>
        <aside aria-label="More articles" className="space-y-6">
          <RelatedList article={article} />
          {/* The specification's 'Stay Updated' promo is present but hidden. */}
          <section hidden aria-labelledby="stay-updated" className="rounded-xl bg-brand-800 p-5 text-white">
            <h2 id="stay-updated" className="text-lg font-semibold">
              Stay Updated
            </h2>
            <p className="mt-2">Get the latest industry news and company updates.</p>
            <a href="/subscribe" className="mt-4 inline-block rounded-md bg-white px-4 py-2 font-semibold text-brand-800">
              Subscribe
            </a>
          </section>
        </aside>
      </div>
    </div>
  );
}

export default function ArticleDetailPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === 'ok') return <ArticleView article={loaderData.article} />;
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center">
      {loaderData.state === 'not-found' ? (
        <>
          <h1 className="text-3xl font-bold">{ARTICLES_TEXT.notFound}</h1>
          <ReturnButton />
        </>
      ) : (
        <>
          <h1 className="text-3xl font-bold">{ARTICLES_TEXT.articleFailed}</h1>
          <p className="mt-4 text-slate-700 dark:text-slate-300">{loaderData.message}</p>
          <div className="mt-6">
            <BackToNews />
          </div>
        </>
      )}
    </div>
  );
}
