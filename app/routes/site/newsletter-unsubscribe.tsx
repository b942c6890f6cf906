import { NewsletterLanding } from '../../features/newsletter/newsletter-landing.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = () =>
  pageMeta({ title: 'Unsubscribe', description: 'Unsubscribe from the newsletter.', path: PATHS.newsletterUnsubscribe, noindex: true });

export default function NewsletterUnsubscribePage() {
  return <NewsletterLanding action="unsubscribe" />;
}
