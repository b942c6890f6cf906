import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { NewsletterListResponse, NewsletterStatus } from '../../../common/schemas/newsletter.ts';
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
