import { ContactInbox } from '../../features/contact/contact-inbox.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Contact Messages' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function ContactMessagesPage() {
  return (
    <ReviewShell title="Contact Messages" permission="submissions.read">
      <ContactInbox />
    </ReviewShell>
  );
}
