import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactInboxResponse, ContactMessage } from '../../../common/schemas/contact.ts';
import { apiFetch } from '../../lib/api.ts';

export type InboxFilter = 'all' | 'unread' | 'read';

const contactKeys = {
  all: ['contact-messages'] as const,
  list: (filter: InboxFilter, page: number) => ['contact-messages', filter, page] as const,
};

/** Staff's inbox of contact messages, newest first. */
export function useContactInbox(filter: InboxFilter, page: number) {
  return useQuery({
    queryKey: contactKeys.list(filter, page),
    queryFn: () => apiFetch<ContactInboxResponse>(`/contact/messages?filter=${filter}&page=${page}`, { fallbackMessage: 'Failed to load messages' }),
    placeholderData: keepPreviousData,
  });
}

/** Marks a message read or unread; the inbox and the dashboard counts follow. */
export function useSetContactRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isRead }: { id: string; isRead: boolean }) =>
      apiFetch<{ success: true; message: ContactMessage }>(`/contact/messages/${encodeURIComponent(id)}/read`, {
        method: 'PUT',
        json: { isRead },
        fallbackMessage: 'Failed to update the message',
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['submissions'] });
    },
  });
}
