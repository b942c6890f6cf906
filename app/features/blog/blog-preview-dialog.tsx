import { useQuery } from '@tanstack/react-query';
import type { BlogImage } from '../../../common/schemas/blog.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { ARTICLE_BODY_CLASS } from '../../components/layout/article-body-class.ts';
import { previewBlogContent } from './blog-api.ts';
import { BlogPicture } from './blog-banner.tsx';
import { formatLongDate } from '../../../common/dates.ts';

export interface BlogPreviewData {
  title: string;
  author: string;
  category: string;
  content: string;
  banner: BlogImage | null;
  /** The date shown: the publication date, or today for a post not yet published. */
  date: string;
}

/**
 * The post as the public article page will show it: the server sanitises the text exactly as a save
 * would, and the body gets the public page's typography.
 */
export function BlogPreviewDialog({ open, onClose, post }: { open: boolean; onClose: () => void; post: BlogPreviewData }) {
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ['blog-preview', post.content],
    queryFn: () => previewBlogContent(post.content),
    enabled: open,
    retry: false,
    gcTime: 0,
  });
  return (
    <ModalDialog open={open} onClose={onClose} title="Preview" description="How visitors will see this post on the Articles page." size="lg">
      <article className="text-slate-900 dark:text-slate-100">
        {post.banner ? <BlogPicture image={post.banner} alt={post.title} sizes="(min-width: 768px) 736px, 100vw" className="aspect-video h-auto w-full rounded-xl object-cover" /> : null}
        <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
          <span className="rounded-full bg-brand-100 px-3 py-1 font-semibold text-brand-800 dark:bg-brand-800 dark:text-white">Articles</span>
          <time dateTime={post.date} className="text-slate-700 dark:text-slate-300">
            {formatLongDate(post.date)}
          </time>
          {post.category ? <span className="text-slate-700 dark:text-slate-300">{post.category}</span> : null}
        </div>
        <h3 className="mt-3 text-3xl font-bold">{post.title || 'Untitled post'}</h3>
        {post.author ? <p className="mt-2 text-slate-700 dark:text-slate-300">By {post.author}</p> : null}
        {isPending ? (
          <InlineLoading label="Loading the preview..." />
        ) : error ? (
          <ErrorState title="Failed to load the preview" error={error} onRetry={() => void refetch()} />
        ) : (
          // Sanitised by the server with the specification's allowlist, as a save stores it.
          <div className={`mt-6 ${ARTICLE_BODY_CLASS}`} data-testid="blog-preview-body" dangerouslySetInnerHTML={{ __html: data.html }} />
        )}
      </article>
    </ModalDialog>
  );
}
