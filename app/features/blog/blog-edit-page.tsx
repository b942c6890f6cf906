import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { BLOG_MESSAGES } from '../../../common/schemas/blog.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { PATHS } from '../../../common/paths.ts';
import { useBlogPost } from './blog-api.ts';
import { BlogPostForm } from './blog-post-form.tsx';

/** The link back to the list, at the top of both forms (specification: "a back link to the list"). */
export function BackToBlogList() {
  return (
    <Link to={PATHS.blogList} className="mb-4 inline-flex min-h-11 items-center gap-2 text-sm font-semibold text-brand-700 underline underline-offset-4 dark:text-sky-300">
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to Blog Management
    </Link>
  );
}

/** The edit screen's body: loads the post, then the form (remounted when a reload brings a newer version). */
export function BlogEditPage({ id }: { id: string }) {
  const { data, error, isPending, refetch, isFetching } = useBlogPost(id);
  return (
    <>
      <BackToBlogList />
      {isPending || (isFetching && !data) ? (
        <InlineLoading label="Loading the blog post..." />
      ) : error || !data ? (
        <ErrorState title={BLOG_MESSAGES.loadOneFailed} error={error} onRetry={() => void refetch()} />
      ) : (
        <BlogPostForm key={`${data.post._id}-${data.post.version}`} post={data.post} onReload={() => void refetch()} />
      )}
    </>
  );
}
