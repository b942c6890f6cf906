import { z } from 'zod';

// The placeholder identity of the company. Everything the site says about who the company is comes
// from here, so the real company replaces this one module. All names, numbers and addresses are
// invented; the domains use the reserved `.example` top-level domain.
const companySchema = z.object({
  name: z.string().min(2),
  shortName: z.string().min(2),
  tagline: z.string(),
  email: z.email(),
  supportEmail: z.email(),
  phone: z.string(),
  alternatePhone: z.string(),
  whatsapp: z.string(),
  address: z.string(),
  addressi: z.string(),
  addressii: z.string(),
  refineryAddress: z.string(),
  registrationNumber: z.string(),
  foundedYear: z.number().int(),
  siteUrl: z.url(),
  social: z.object({ facebook: z.url(), twitter: z.url(), whatsapp: z.url() }),
});

export type Company = z.infer<typeof companySchema>;

export const company: Company = companySchema.parse({
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
});
