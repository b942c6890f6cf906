import { SubscriberList } from '../../features/newsletter/subscriber-list.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Newsletter Subscribers' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function NewsletterSubscribersPage() {
  return (
    <ReviewShell title="Newsletter Subscribers" permission="newsletter.write">
      <SubscriberList />
    </ReviewShell>
  );
}
