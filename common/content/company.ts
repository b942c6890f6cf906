import type { Company } from './schemas.ts';

// The placeholder identity of the company. Everything the site says about who the company is comes
// from here, so the real company replaces this one module. All names, numbers and addresses are
// invented; the domains use the reserved `.example` top-level domain.
// Checked against companySchema (common/content/schemas.ts) by the build and the content tests, not at
// import: the header imports this module on every page and zod would add ~24 KB to each.
export type { Company };

export const company: Company = {
  name: 'Kora Delta Engineering & Logistics Ltd',
  shortName: 'Kora Delta',
  tagline: 'Engineering, construction and logistics, delivered safely across Nigeria',
  email: 'info@koradelta.example',
  supportEmail: 'support@koradelta.example',
  phone: '+234 800 000 0101',
  alternatePhone: '+234 800 000 0102',
  whatsapp: '+234 800 000 0103',
  address: '12 Harbour View Road, Trans-Amadi, Port Harcourt, Rivers State, Nigeria',
  addressi: '400 Example Avenue, Suite 210, Houston, TX 77000, United States',
  addressii: 'Plot 7 Riverside Industrial Layout, Onne, Rivers State, Nigeria (equipment yard)',
  refineryAddress: 'Refinery Access Road, Alesa-Eleme, Port Harcourt, Rivers State, Nigeria',
  registrationNumber: 'RC 0000000',
  foundedYear: 2011,
  siteUrl: 'https://www.koradelta.example',
  social: {
    facebook: 'https://facebook.com/koradelta.example',
    twitter: 'https://twitter.com/koradelta_example',
    whatsapp: 'https://wa.me/2348000000103',
  },
};
