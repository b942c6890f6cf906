import clsx from 'clsx';
import { data, Link } from 'react-router';
import type { Route } from './+types/articles';
import { ARTICLES_TEXT, PAGE_CACHE_UNTIL_HEADER, type ArticlesPage } from '../../../common/schemas/articles.ts';
import { BLOG_CATEGORIES } from '../../../common/schemas/blog.ts';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { SiteHero } from '../../features/site/site-sections.tsx';
import { ArticleCardView } from '../../features/articles/article-card.tsx';
import { articlesReaderFrom, loggerFrom } from '../../features/articles/articles-context.ts';
import { NO_HYDRATION } from '../../lib/hydration.ts';

type LoaderData = { state: 'ok'; page: ArticlesPage } | { state: 'error'; message: string; category: string | null };

/** The list's address for a page and category (page 1 and "all" leave their parameter out). */
function listHref(page: number, category: string | null) {
  const params = new URLSearchParams();
  if (category) params.set('category', category);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${PATHS.articles}?${query}` : PATHS.articles;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const pageParam = url.searchParams.get('page');
  const page = pageParam && /^\d{1,4}$/.test(pageParam) ? Math.max(1, Number(pageParam)) : 1;
  const categoryParam = url.searchParams.get('category');
  const category = (BLOG_CATEGORIES as readonly string[]).includes(categoryParam ?? '') ? categoryParam : null;
  try {
    const { data: result, validUntil } = await articlesReaderFrom(context).listPage({ page, category });
    // A page past the last one does not exist (a real 404, so search engines drop it).
    const status = page > result.pages ? 404 : 200;
    return data<LoaderData>({ state: 'ok', page: result }, { status, headers: { [PAGE_CACHE_UNTIL_HEADER]: validUntil.toISOString() } });
  } catch (err) {
    loggerFrom(context)?.error({ err }, 'articles list failed');
    return data<LoaderData>({ state: 'error', message: ARTICLES_TEXT.loadFailed, category }, { status: 500 });
  }
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

export const meta = ({ loaderData, matches }: Omit<Route.MetaArgs, 'matches'> & { matches: MetaMatches }): Route.MetaDescriptors => {
  const category = loaderData?.state === 'ok' ? loaderData.page.category : null;
  const page = loaderData?.state === 'ok' ? loaderData.page.page : 1;
  return pageMeta(companyOfMatches(matches), {
    title: category ? `Articles: ${category}` : page > 1 ? `Articles (page ${page})` : 'Articles',
    description: ARTICLES_TEXT.heroSubtitle,
    path: listHref(page, category),
  });
};

function CategoryFilter({ current }: { current: string | null }) {
  const chip = (active: boolean) =>
    clsx(
      'inline-block rounded-full border px-3 py-1.5 text-sm font-medium',
      active
        ? 'border-brand-700 bg-brand-700 text-white dark:border-sky-300 dark:bg-sky-300 dark:text-slate-950'
        : 'border-slate-300 bg-white text-slate-800 hover:border-brand-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100',
    );
  return (
    <nav aria-label="Categories of company posts" className="mx-auto max-w-7xl px-4 pt-10">
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link to={PATHS.articles} className={chip(!current)} aria-current={!current ? 'page' : undefined}>
            All articles
          </Link>
        </li>
        {BLOG_CATEGORIES.map((c) => (
          <li key={c}>
            <Link to={listHref(1, c)} className={chip(current === c)} aria-current={current === c ? 'page' : undefined}>
              {c}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function StateMessage({ text, action, href }: { text: string; action: string; href: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center" role="status">
      <p className="text-lg text-slate-800 dark:text-slate-200">{text}</p>
      {/* A link to the same address: the page reloads, with or without JavaScript. */}
      <a href={href} className="mt-6 inline-block rounded-md bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800" data-reload>
        {action}
      </a>
    </div>
  );
}

function Paging({ page, pages, category }: { page: number; pages: number; category: string | null }) {
  if (pages <= 1) return null;
  const link = 'rounded-md border border-slate-300 px-4 py-2 font-semibold text-brand-700 hover:border-brand-700 dark:border-slate-600 dark:text-sky-300';
  return (
    <nav aria-label="Pages of articles" className="mt-10 flex items-center justify-center gap-4">
      {page > 1 ? (
        <Link to={listHref(page - 1, category)} className={link} rel="prev">
          Newer articles
        </Link>
      ) : null}
      <span className="text-slate-700 dark:text-slate-300">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={listHref(page + 1, category)} className={link} rel="next">
          Older articles
        </Link>
      ) : null}
    </nav>
  );
}

export default function ArticlesPageView({ loaderData }: Route.ComponentProps) {
  const category = loaderData.state === 'ok' ? loaderData.page.category : loaderData.category;
  return (
    <>
      <SiteHero title={ARTICLES_TEXT.heroTitle} subtitle={ARTICLES_TEXT.heroSubtitle} />
      <CategoryFilter current={category} />
      <section aria-label="Articles" className="mx-auto max-w-7xl px-4 py-10">
        {loaderData.state === 'error' ? (
          <StateMessage text={`Error: ${loaderData.message}`} action={ARTICLES_TEXT.retry} href={listHref(1, category)} />
        ) : loaderData.page.items.length === 0 && loaderData.page.newsError ? (
          <StateMessage text={`Error: ${loaderData.page.newsError}`} action={ARTICLES_TEXT.retry} href={listHref(1, category)} />
        ) : loaderData.page.items.length === 0 ? (
          <StateMessage text={ARTICLES_TEXT.empty} action={ARTICLES_TEXT.tryAgain} href={listHref(1, category)} />
        ) : (
          <>
            <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {loaderData.page.items.map((a, i) => (
                <ArticleCardView key={a.id} article={a} index={i} />
              ))}
            </ul>
            <Paging page={loaderData.page.page} pages={loaderData.page.pages} category={category} />
          </>
        )}
      </section>
    </>
  );
}
