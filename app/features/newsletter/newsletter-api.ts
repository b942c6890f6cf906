import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NEWSLETTER_ISSUE_MESSAGES,
  type NewsletterIssueContent,
  type NewsletterIssuesResponse,
  type NewsletterListResponse,
  type NewsletterResult,
  type NewsletterSendIssueInput,
  type NewsletterSendIssueResponse,
  type NewsletterStatus,
} from '../../../common/schemas/newsletter.ts';
import { apiFetch } from '../../lib/api.ts';

/** Staff's list of subscribers, newest first. */
export function useNewsletterSubscribers(status: NewsletterStatus | undefined, page: number) {
  return useQuery({
    queryKey: ['newsletter-subscribers', status ?? 'all', page],
    queryFn: () => {
      const q = new URLSearchParams({ page: String(page) });
      if (status) q.set('status', status);
      return apiFetch<NewsletterListResponse>(`/newsletter/subscribers?${q}`, { fallbackMessage: 'Failed to load subscribers' });
    },
    placeholderData: keepPreviousData,
  });
}

export const subscribersCsvUrl = (status?: NewsletterStatus) => `/api/newsletter/subscribers/export${status ? `?status=${status}` : ''}`;

const ISSUES_KEY = ['newsletter-issues'] as const;

/** Newsletters already sent (newest first), with how many confirmed subscribers a new one reaches. */
export function useNewsletterIssues(page: number) {
  return useQuery({
    queryKey: [...ISSUES_KEY, page],
    queryFn: () => apiFetch<NewsletterIssuesResponse>(`/newsletter/issues?page=${page}`, { fallbackMessage: NEWSLETTER_ISSUE_MESSAGES.loadFailed }),
    placeholderData: keepPreviousData,
  });
}

/** Mails the draft to the signed-in staff member only. */
export function useSendNewsletterTest() {
  return useMutation({
    mutationFn: (content: NewsletterIssueContent) =>
      apiFetch<NewsletterResult>('/newsletter/issues/test', { method: 'POST', json: content, fallbackMessage: NEWSLETTER_ISSUE_MESSAGES.testFailed }),
  });
}

/** Sends the issue to every confirmed subscriber (once per idempotency key). */
export function useSendNewsletterIssue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewsletterSendIssueInput) =>
      apiFetch<NewsletterSendIssueResponse>('/newsletter/issues', { method: 'POST', json: input, fallbackMessage: NEWSLETTER_ISSUE_MESSAGES.sendFailed }),
    // Also after a failure: a refused second send (409) means the list has it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ISSUES_KEY }),
  });
}
