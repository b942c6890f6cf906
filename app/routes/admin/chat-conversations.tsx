import { ChatOverview } from '../../features/chat/chat-overview.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Support Chat' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function ChatConversationsPage() {
  return (
    <ReviewShell title="Support Chat" permission="support.answer">
      <ChatOverview />
    </ReviewShell>
  );
}
