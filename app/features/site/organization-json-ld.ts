import type { SectionDocument } from '../../../common/content/sections.ts';

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
    '@id': `${company.siteUrl}/#organization`,
    name: company.name,
    alternateName: company.shortName,
    url: company.siteUrl,
    logo: new URL('/favicon.svg', company.siteUrl).toString(),
    image: new URL('/og-image.png', company.siteUrl).toString(),
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
    sameAs: [company.social.facebook, company.social.twitter],
    knowsAbout: services.map((s) => s.title),
  };
}
