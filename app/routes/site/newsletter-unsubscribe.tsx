import { NewsletterLanding } from '../../features/newsletter/newsletter-landing.tsx';
import type { Route } from './+types/newsletter-unsubscribe';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), { title: 'Unsubscribe', description: 'Unsubscribe from the newsletter.', path: PATHS.newsletterUnsubscribe, noindex: true });

export default function NewsletterUnsubscribePage() {
  return <NewsletterLanding action="unsubscribe" />;
}
