import { NewsletterLanding } from '../../features/newsletter/newsletter-landing.tsx';
import type { Route } from './+types/newsletter-confirm';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), { title: 'Confirm your subscription', description: 'Confirm your newsletter subscription.', path: PATHS.newsletterConfirm, noindex: true });

export default function NewsletterConfirmPage() {
  return <NewsletterLanding action="confirm" />;
}
