import type { SectionDocument } from '../../../common/content/sections.ts';
import { safeHref, siteLink } from '../../../common/schemas/link-check.ts';

/** schema.org description of the company (with its three offices) for search engines. */
export function organizationJsonLd(
  company: SectionDocument<'company'>,
  { companyFacts }: Pick<SectionDocument<'facts'>, 'companyFacts'>,
  { services }: SectionDocument<'services'>,
) {
  const [head, ...others] = companyFacts.offices;
  const postal = (o: (typeof companyFacts.offices)[number]) => ({
    '@type': 'PostalAddress',
    streetAddress: o.streetAddress,
    addressLocality: o.addressLocality,
    addressRegion: o.addressRegion,
    ...(o.postalCode ? { postalCode: o.postalCode } : {}),
    addressCountry: o.addressCountry,
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': siteLink(company.siteUrl, '/#organization'),
    name: company.name,
    alternateName: company.shortName,
    url: safeHref(company.siteUrl),
    logo: siteLink(company.siteUrl, '/favicon.svg'),
    image: siteLink(company.siteUrl, '/og-image.png'),
    description: company.tagline,
    email: company.email,
    telephone: company.phone,
    foundingDate: String(company.foundedYear),
    identifier: company.registrationNumber,
    address: postal(head),
    location: [head, ...others].map((o) => ({ '@type': 'Place', name: o.name, address: postal(o) })),
    contactPoint: [
      { '@type': 'ContactPoint', contactType: 'customer support', telephone: company.phone, email: company.supportEmail, availableLanguage: ['en'] },
    ],
    // Decision 300: web links only; a missing or refused one is left out.
    sameAs: [company.social.facebook, company.social.twitter].map((link) => safeHref(link)).filter((link) => link !== undefined),
    knowsAbout: services.map((s) => s.title),
  };
}
