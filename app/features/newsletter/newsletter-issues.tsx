import { useListParams } from '../../lib/list-params.ts';
import { IssueList } from './issue-list.tsx';
import { useNewsletterIssues } from './newsletter-api.ts';
import { NewsletterIssueForm } from './newsletter-issue-form.tsx';

const NO_FILTER: readonly string[] = [];

/** Staff's Newsletter screen: write and send an issue, then the issues already sent. */
export function NewsletterIssues() {
  // The list has no filter; the page lives in the address like the other staff lists.
  const { page, go } = useListParams('filter', NO_FILTER);
  const { data, error, isPending, refetch } = useNewsletterIssues(page);
  return (
    // A column of flex items (not grid cells): the wide table scrolls inside its card instead of widening the page on phones.
    <div className="flex min-w-0 flex-col gap-6">
      <NewsletterIssueForm confirmedSubscribers={data?.confirmedSubscribers} />
      <IssueList data={data} error={error} isPending={isPending} onRetry={() => void refetch()} page={page} onPage={(p) => go({ page: p })} />
    </div>
  );
}
