import type { Route } from './+types/vendor-registration';
import { type MetaMatches, companyOfMatches } from '../../lib/site-content.ts';
import { VendorRegistrationForm } from '../../features/vendors/vendor-registration-form.tsx';
import { PageHero } from '../../features/site/page-hero.tsx';
import { pageMeta } from '../../lib/seo.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors => {
  const company = companyOfMatches(matches);
  return pageMeta(company, { title: 'Vendor Registration', description: `Register your company as a vendor or supplier to ${company.name}.`, path: PATHS.vendorRegistration });
};

export default function VendorRegistrationPage() {
  return (
    <>
      <PageHero title="Vendor Registration" subtitle="Register your company as a vendor or supplier. We review every registration and contact you if we need more." />
      <section aria-label="Vendor registration form" className="bg-slate-50 px-4 py-12 sm:py-16 dark:bg-slate-950">
        <div className="mx-auto max-w-4xl">
          <VendorRegistrationForm />
        </div>
      </section>
    </>
  );
}
