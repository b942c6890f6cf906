import { ContactDetails } from '../../features/contact/contact-details.tsx';
import { ContactForm } from '../../features/contact/contact-form.tsx';
import { PageHero } from '../../features/site/page-hero.tsx';
import type { Route } from './+types/contact';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['contact', 'company']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'Contact',
    description: 'Talk to us about your project. We reply within 24 hours.',
    path: PATHS.contact,
  });

export default function ContactPage({ loaderData }: Route.ComponentProps) {
  
  return (
    <>
      <PageHero title="Contact Us" subtitle="Talk to us about your project. We reply within 24 hours." />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:py-16 lg:grid-cols-5">
        <section aria-labelledby="contact-form-heading" className="lg:col-span-3">
          <h2 id="contact-form-heading" className="mb-6 text-2xl font-bold sm:text-3xl">
            Send Us a Message
          </h2>
          <ContactForm />
        </section>
        <section aria-labelledby="contact-details-heading" className="lg:col-span-2">
          <h2 id="contact-details-heading" className="mb-6 text-2xl font-bold sm:text-3xl">
            Get in Touch
          </h2>
          <ContactDetails company={loaderData.company} contact={loaderData.contact} />
        </section>
      </div>
    </>
  );
}
