import { NewsletterLanding } from '../../features/newsletter/newsletter-landing.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = () =>
  pageMeta({ title: 'Confirm your subscription', description: 'Confirm your newsletter subscription.', path: PATHS.newsletterConfirm, noindex: true });

export default function NewsletterConfirmPage() {
  return <NewsletterLanding action="confirm" />;
}
