import '../zod-setup.ts';
import { z } from 'zod';
import { imageRefSchema, pdfRefSchema } from './media-refs.ts';
import { optionalWebAddress, webAddress } from '../schemas/links.ts';

// The shapes of every piece of company content. Content modules import only the *types* from here
// (erased at compile time), so zod never reaches the browser bundle of a public page; the build
// (react-router.config.ts, buildEnd) and the unit tests parse the content with these schemas.

const text = z.string().trim().min(1);
/** A key of the generated image manifest (common/content/image-manifest.ts) or 'media/<uuid>' (decision 291). */
const imageKey = imageRefSchema;

export const companySchema = z.object({
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
  siteUrl: webAddress,
  /** Each may be left out: a company need not be on every network (decision 300). */
  social: z.object({ facebook: optionalWebAddress, twitter: optionalWebAddress, whatsapp: optionalWebAddress }),
});
export type Company = z.infer<typeof companySchema>;

/** A structured office address, for the organisation's JSON-LD and the PDF profile. */
const officeSchema = z.object({
  name: text,
  streetAddress: text,
  addressLocality: text,
  addressRegion: text,
  postalCode: z.string().optional(),
  addressCountry: z.string().length(2),
});

export const factSchema = z.object({ value: text, label: text });
export type Fact = z.infer<typeof factSchema>;

export const pointSchema = z.object({ title: text, description: text });
export type Point = z.infer<typeof pointSchema>;

export const companyFactsSchema = z.object({
  foundedYear: z.number().int().min(1900),
  combinedManagementExperienceYears: z.number().int().positive(),
  topManagementExperienceYears: z.number().int().positive(),
  minimumOwnedEquipmentPercent: z.number().min(0).max(100),
  nigerianShareholdingPercent: z.number().min(0).max(100),
  keyStrengths: z.array(pointSchema).length(3),
  offices: z.array(officeSchema).min(3),
});
export type CompanyFacts = z.infer<typeof companyFactsSchema>;

export const SERVICE_IDS = [
  'oil-gas',
  'design-planning',
  'mechanical-fabrication',
  'civil-engineering',
  'marine-logistics',
  'mechanical-engineering',
] as const;

const SERVICE_ICONS = ['flame', 'drafting-compass', 'wrench', 'building', 'ship', 'cog'] as const;

export const serviceSchema = z.object({
  id: z.enum(SERVICE_IDS),
  title: text,
  description: text,
  details: z.array(text).min(1),
  features: z.array(text).min(3),
  icon: z.enum(SERVICE_ICONS),
  /** Tailwind colour family of the card accent. */
  color: z.enum(['amber', 'sky', 'emerald', 'rose', 'indigo', 'teal']),
  image: imageKey,
});
export type Service = z.infer<typeof serviceSchema>;

/** A team member's profile links, each one optional. */
const profileLinks = { website: optionalWebAddress, linkedin: optionalWebAddress, twitter: optionalWebAddress, whatsapp: optionalWebAddress };

export const teamMemberSchema = z.object({ name: text, position: text, image: imageKey, bio: text, ...profileLinks });
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const showcaseProjectSchema = z.object({
  title: text,
  image: imageKey,
  description: text,
  location: text,
  /** Surface area, when the project has one worth stating. */
  area: text.optional(),
  /** Completion, as "YYYY-MM". */
  date: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
  client: text,
});
export type ShowcaseProject = z.infer<typeof showcaseProjectSchema>;

export const equipmentItemSchema = z.object({ image: imageKey, name: text, category: text });
export type EquipmentItem = z.infer<typeof equipmentItemSchema>;

export const galleryItemSchema = z.object({ image: imageKey, name: text, location: text });
export type GalleryItem = z.infer<typeof galleryItemSchema>;

export const testimonialSchema = z.object({ quote: text, name: text, position: text });
export type Testimonial = z.infer<typeof testimonialSchema>;

export const certificateSchema = z.object({
  title: text,
  issuer: text,
  /** Year of issue, as the cards show it. */
  date: z.string().regex(/^\d{4}$/),
  image: imageKey,
  description: text,
  /** The certificate itself as a PDF of the media library, for visitors to download (decision 295). */
  pdf: pdfRefSchema.optional(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const partnerSchema = z.object({
  name: text,
  /** Path of an SVG logo under public/images/partners/. */
  logo: z.string().regex(/^\/images\/partners\/[a-z0-9-]+\.svg$/),
});
export type Partner = z.infer<typeof partnerSchema>;

export const processStepSchema = z.object({ step: z.number().int().positive(), title: text, description: text });
export type ProcessStep = z.infer<typeof processStepSchema>;

export const slideSchema = z.object({
  theme: z.enum(['safety', 'execution', 'expertise', 'quality', 'challenges', 'energy']),
  title: text,
  subtitle: text,
  image: imageKey,
});
export type Slide = z.infer<typeof slideSchema>;

export const aboutSchema = z.object({
  story: z.array(text).min(1),
  vision: text,
  mission: text,
  values: z.array(pointSchema).min(3),
});
export type About = z.infer<typeof aboutSchema>;

export const contactContentSchema = z.object({
  offices: z.array(z.object({ title: text, address: text })).min(1),
  hours: z.array(text).min(1),
});
export type ContactContent = z.infer<typeof contactContentSchema>;

export const footerContentSchema = z.object({ newsletterHeading: text, newsletterText: text });
export type FooterContent = z.infer<typeof footerContentSchema>;
