import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { clsx } from 'clsx';
import { FileText, Pencil, Plus, Search, Trash2 } from 'lucide-react';
import {
  BLOG_LIMITS,
  BLOG_LIST_PAGE_SIZE,
  BLOG_MESSAGES,
  BLOG_STATUS_LABELS,
  type BlogPostSummary,
  type BlogStatus,
} from '../../../common/schemas/blog.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass } from '../../components/forms/field-classes.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { Pager } from '../../components/ui/pager.tsx';
import { ScrollTable } from '../../components/ui/scroll-table.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { pageCount } from '../../lib/list-params.ts';
import { PATHS } from '../../../common/paths.ts';
import { useBlogPosts, useDeleteBlogPost, useSetBlogVisibility } from './blog-api.ts';
import { formatDateTime } from '../../../common/dates.ts';

// The specification's columns, in its order.
const COLUMNS = [
  { label: 'Title' },
  { label: 'Author' },
  { label: 'Category' },
  { label: 'Date' },
  { label: 'Status' },
  { label: 'Visibility' },
  { label: 'Actions', align: 'right' },
] as const;

const STATUS_STYLE: Record<BlogStatus, string> = {
  draft: 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100',
  published: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  scheduled: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
};

/** The show/hide switch of a row: saved on the server, and says what it does for screen readers. */
function VisibilitySwitch({ post }: { post: BlogPostSummary }) {
  const setVisibility = useSetBlogVisibility();
  // Shows the state asked for while the server saves it; the refreshed list then confirms it.
  const visible = setVisibility.isPending ? setVisibility.variables.visibility === 'visible' : post.visibility === 'visible';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={visible}
      aria-label={`Visible to visitors: ${post.title}`}
      disabled={setVisibility.isPending}
      onClick={() =>
        setVisibility.mutate(
          { id: post._id, visibility: visible ? 'hidden' : 'visible' },
          { onError: (err) => toastFailure(BLOG_MESSAGES.visibilityFailed, err) },
        )
      }
      className="group inline-flex min-h-11 items-center gap-2 rounded-md px-1 text-sm disabled:opacity-60"
    >
      <span
        aria-hidden="true"
        className={clsx(
          'relative inline-flex h-6 w-11 shrink-0 rounded-full border-2 border-transparent transition-colors',
          visible ? 'bg-brand-700 dark:bg-sky-400' : 'bg-slate-400 dark:bg-slate-600',
        )}
      >
        <span className={clsx('inline-block size-5 rounded-full bg-white shadow transition-transform', visible ? 'translate-x-5' : 'translate-x-0')} />
      </span>
      <span>{visible ? 'Visible' : 'Hidden'}</span>
    </button>
  );
}

/** Staff's table of blog posts with search, paging, the show/hide switch, edit and delete. */
export function BlogPostList() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(q);
  const { data, error, isPending, isFetching, refetch } = useBlogPosts(page, q);
  const remove = useDeleteBlogPost();
  const [deleting, setDeleting] = useState<BlogPostSummary | null>(null);
  const pages = data ? pageCount(data.total, BLOG_LIST_PAGE_SIZE) : 1;

  const go = (next: { q?: string; page?: number }) => {
    const query = new URLSearchParams();
    const nextQ = next.q ?? q;
    if (nextQ) query.set('q', nextQ);
    if ((next.page ?? 1) > 1) query.set('page', String(next.page));
    setParams(query);
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    go({ q: search.trim(), page: 1 });
  };

  async function onDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting._id);
      toast(BLOG_MESSAGES.deleted);
      setDeleting(null);
    } catch (err) {
      toastFailure(BLOG_MESSAGES.deleteFailed, err);
    }
  }

  return (
    <section aria-labelledby="posts-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <h2 id="posts-heading" className="text-xl font-semibold">
          Blog posts {data ? <span className="text-base font-normal text-slate-600 dark:text-slate-400">({data.total})</span> : null}
        </h2>
        <Link to={PATHS.blogNew} className={buttonClass('primary')}>
          <Plus className="size-4" aria-hidden="true" />
          New Blog Post
        </Link>
      </div>
      <form role="search" onSubmit={onSearch} className="mb-4 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <label htmlFor="blog-search" className="mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200">
            Search titles
          </label>
          <input id="blog-search" type="search" className={inputClass} value={search} maxLength={BLOG_LIMITS.search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <button type="submit" className={buttonClass('secondary')}>
          <Search className="size-4" aria-hidden="true" />
          Search
        </button>
        {q ? (
          <button
            type="button"
            className={buttonClass('ghost')}
            onClick={() => {
              setSearch('');
              go({ q: '', page: 1 });
            }}
          >
            Clear search
          </button>
        ) : null}
      </form>

      {isPending ? (
        <InlineLoading label="Loading blog posts..." />
      ) : error ? (
        <ErrorState title={BLOG_MESSAGES.loadFailed} error={error} onRetry={() => void refetch()} />
      ) : !data.posts.length ? (
        <EmptyState
          icon={<FileText className="size-8" aria-hidden="true" />}
          title={q ? 'No posts match this search' : 'No blog posts yet'}
          description={q ? `No title contains “${q}”.` : 'Posts you write appear here. Published, visible posts show on the Articles page.'}
        />
      ) : (
        <>
          <ScrollTable label="Blog posts table" caption="Blog posts, most recently changed first" minWidth="min-w-[56rem]" columns={COLUMNS} stackOnPhone>
            {data.posts.map((post) => (
              <tr key={post._id} className="border-b border-slate-100 align-middle dark:border-slate-800">
                <td data-label="Title" className="py-2 pr-4 font-medium break-words">{post.title}</td>
                <td data-label="Author" className="py-2 pr-4">{post.author}</td>
                <td data-label="Category" className="py-2 pr-4">{post.category}</td>
                <td data-label="Date" className="py-2 pr-4 whitespace-nowrap">
                  {post.publishAt ? <time dateTime={post.publishAt}>{formatDateTime(post.publishAt)}</time> : '–'}
                </td>
                <td data-label="Status" className="py-2 pr-4">
                  <span className={clsx('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold', STATUS_STYLE[post.status])}>
                    {BLOG_STATUS_LABELS[post.status]}
                  </span>
                </td>
                <td data-label="Visibility" className="py-2 pr-4">
                  <VisibilitySwitch post={post} />
                </td>
                <td className="py-2 text-right whitespace-nowrap">
                  <Link to={PATHS.blogEdit(post._id)} className={buttonClass('ghost')} aria-label={`Edit ${post.title}`}>
                    <Pencil className="size-4" aria-hidden="true" />
                    Edit
                  </Link>
                  <button type="button" className={buttonClass('danger')} aria-label={`Delete ${post.title}`} onClick={() => setDeleting(post)}>
                    <Trash2 className="size-4" aria-hidden="true" />
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </ScrollTable>
          {pages > 1 ? <Pager page={page} pages={pages} onPage={(p) => go({ page: p })} label="Blog post pages" busy={isFetching} /> : null}
        </>
      )}

      <ModalDialog open={deleting !== null} onClose={() => setDeleting(null)} title={BLOG_MESSAGES.confirmDelete.title} description={BLOG_MESSAGES.confirmDelete.description}>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass('secondary')} onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </button>
          <button
            type="button"
            className="inline-flex min-h-11 items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60 dark:bg-red-400 dark:text-slate-950 dark:hover:bg-red-300"
            onClick={() => void onDelete()}
            disabled={remove.isPending}
          >
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </button>
        </div>
      </ModalDialog>
    </section>
  );
}
