import { BadgeCheck, FileCheck, FileDown, RefreshCw, ShieldCheck } from 'lucide-react';
import type { Route } from './+types/certifications';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf, useSiteMedia } from '../../lib/site-content.ts';
import { fileSizeLabel } from '../../../common/schemas/media.ts';
import { PATHS } from '../../../common/paths.ts';
import { ResponsiveImage } from '../../features/site/responsive-image.tsx';
import { SectionHeading, SiteHero } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['certificates']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'Certifications & Licenses',
    description: 'Occupational health and safety, environmental and quality management certifications, and full regulatory compliance.',
    path: PATHS.certifications,
  });

const COMPLIANCE_ICONS = [ShieldCheck, FileCheck, RefreshCw];

/**
 * The certificate's PDF, when it has one (decision 295): a download link saying the type and size.
 * The certificate's title ends the link's name (not shown: the card's heading says it); a PDF no
 * longer in the library draws nothing.
 */
function CertificatePdf({ reference, title }: { reference: string | undefined; title: string }) {
  const media = useSiteMedia();
  const pdf = reference ? media[reference]?.document : undefined;
  if (!pdf) return null;
  return (
    <a
      href={pdf.url}
      download
      // The visible words first, then the certificate's title: each link of the page reads apart.
      aria-label={`Download certificate (PDF, ${fileSizeLabel(pdf.bytes)}): ${title}`}
      data-certificate-pdf=""
      className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-md border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-sky-300 dark:text-sky-300 dark:hover:bg-slate-800"
    >
      <FileDown className="size-4 shrink-0" aria-hidden="true" />
      Download certificate (PDF, {fileSizeLabel(pdf.bytes)})
    </a>
  );
}

export default function CertificationsPage({ loaderData }: Route.ComponentProps) {
  const { certificates, regulatoryCompliance } = loaderData.certificates;
  return (
    <>
      <SiteHero title="Certifications & Licenses" subtitle="Independently certified management systems, and every licence our work requires." />
      <section aria-label="Certificates" className="mx-auto max-w-7xl px-4 py-16">
        <ul className="grid gap-6 md:grid-cols-3">
          {certificates.map((c) => (
            <li key={c.title} className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
              <ResponsiveImage image={c.image} alt={`${c.title} certificate`} sizes="(min-width: 768px) 400px, 100vw" className="aspect-[4/3] h-auto w-full object-cover" />
              <div className="p-6">
                <div className="flex items-center justify-between gap-2">
                  <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
                    <BadgeCheck className="size-4" aria-hidden="true" />
                    Certified
                  </span>
                  <span className="text-sm font-medium text-slate-700 dark:text-slate-300">{c.date}</span>
                </div>
                <h2 className="mt-4 text-xl font-semibold">{c.title}</h2>
                <p className="mt-1 text-sm font-medium text-brand-700 dark:text-sky-300">{c.issuer}</p>
                <p className="mt-3 text-slate-700 dark:text-slate-300">{c.description}</p>
                <CertificatePdf reference={c.pdf} title={c.title} />
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="compliance-heading" className="bg-slate-100 px-4 py-16 dark:bg-slate-900">
        <div className="mx-auto max-w-7xl">
          <SectionHeading id="compliance-heading" title="Regulatory Compliance" />
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {regulatoryCompliance.map((p, i) => {
              const Icon = COMPLIANCE_ICONS[i % COMPLIANCE_ICONS.length];
              return (
                <li key={p.title} className="rounded-xl bg-white p-6 text-center shadow-sm dark:bg-slate-950">
                  <Icon className="mx-auto size-10 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
                  <h3 className="mt-3 text-xl font-semibold">{p.title}</h3>
                  <p className="mt-2 text-slate-700 dark:text-slate-300">{p.description}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>
    </>
  );
}
