import { NewsletterIssues } from '../../features/newsletter/newsletter-issues.tsx';
import { ReviewShell } from './review-shell.tsx';

export const meta = () => [{ title: 'Newsletter' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function NewsletterPage() {
  return (
    <ReviewShell title="Newsletter" permission="newsletter.write">
      <NewsletterIssues />
    </ReviewShell>
  );
}
