import { useQuery } from '@tanstack/react-query';
import type { ChatOverviewResponse } from '../../../common/schemas/chat.ts';
import { apiFetch } from '../../lib/api.ts';

/** Staff's view of the support chat: recent conversations, unanswered questions, hand-offs. */
export function useChatOverview() {
  return useQuery({
    queryKey: ['chat-overview'],
    queryFn: () => apiFetch<ChatOverviewResponse>('/chat/conversations', { fallbackMessage: 'Failed to load conversations' }),
  });
}
