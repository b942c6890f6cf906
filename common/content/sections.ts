import '../zod-setup.ts';
import { z } from 'zod';
import * as s from './schemas.ts';

// The website's content as staff edit it (issue 24, decision 283): one document per section, each an
// object checked by its schema on every save. The rules the pages rely on (counts, order, unique
// names) are part of the schemas, so a save that would break a page is refused with a field message.

/** A list of `item`s: exactly `count` of them, or from `count[0]` up to `count[1]` (no limit when left out). */
const listOf = <T extends z.ZodType>(item: T, count: number | [min: number, max?: number]) => {
  if (typeof count === 'number') return z.array(item).length(count);
  const atLeast = z.array(item).min(count[0]);
  return count[1] === undefined ? atLeast : atLeast.max(count[1]);
};

/** The list with no two items sharing `key` (the message names the repeated one at its place). */
const uniqueBy = <T extends z.ZodType>(list: z.ZodArray<T>, key: (item: z.infer<T>) => string, what: string) =>
  list.superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [i], message: `${what} "${k}" appears twice` });
      seen.add(k);
    });
  });

/** Lists whose order the pages rely on: the editor offers no Move buttons for them (decision 297). */
export const FIXED_ORDER_LISTS = z.registry<{ fixedOrder: true }>();

/** The list in exactly this order of `key` (the pages place each item by its position). */
const inOrder = <T extends z.ZodType>(
  list: z.ZodArray<T>,
  key: (item: z.infer<T>) => string,
  order: readonly string[],
) =>
  list
    .refine((items) => items.map(key).join() === order.join(), `must be in this order: ${order.join(', ')}`)
    .register(FIXED_ORDER_LISTS, { fixedOrder: true });

const SLIDE_ORDER = ['safety', 'execution', 'expertise', 'quality', 'challenges', 'energy'] as const;

export const SECTION_SCHEMAS = {
  company: s.companySchema,
  facts: z.object({
    companyFacts: s.companyFactsSchema,
    headlineFacts: listOf(s.factSchema, [1]),
    projectStatistics: listOf(s.factSchema, 4),
    equipmentStatistics: listOf(s.factSchema, 4),
    whyChooseUs: listOf(s.pointSchema, 4),
  }),
  home: z.object({ slides: inOrder(listOf(s.slideSchema, 6), (x) => x.theme, SLIDE_ORDER) }),
  services: z.object({ services: inOrder(listOf(s.serviceSchema, 6), (x) => x.id, s.SERVICE_IDS) }),
  about: s.aboutSchema,
  team: z.object({ members: uniqueBy(listOf(s.teamMemberSchema, [1]), (m) => m.name, 'Team member') }),
  process: z.object({
    steps: listOf(s.processStepSchema, 5)
      .refine((steps) => steps.every((x, i) => x.step === i + 1), 'steps must be numbered 1 to 5 in order')
      .register(FIXED_ORDER_LISTS, { fixedOrder: true }),
    benefits: listOf(s.pointSchema, 4),
  }),
  projects: z.object({
    projects: uniqueBy(listOf(s.showcaseProjectSchema, [17, 21]), (p) => p.title, 'Project title'),
    categories: listOf(s.pointSchema, 3),
  }),
  equipment: z.object({
    items: uniqueBy(listOf(s.equipmentItemSchema, [3]), (e) => e.name, 'Equipment name').refine(
      (a) => a.length % 3 === 0,
      'must be a multiple of three',
    ),
  }),
  gallery: z.object({ items: listOf(s.galleryItemSchema, [4]) }),
  testimonials: z.object({ items: listOf(s.testimonialSchema, [2]) }),
  certificates: z.object({
    certificates: listOf(s.certificateSchema, 3),
    regulatoryCompliance: listOf(s.pointSchema, 3),
  }),
  partners: z.object({ partners: uniqueBy(listOf(s.partnerSchema, [4]), (p) => p.name, 'Partner') }),
  contact: s.contactContentSchema,
  footer: s.footerContentSchema,
} as const;

export type SectionKey = keyof typeof SECTION_SCHEMAS;
export type SectionDocument<K extends SectionKey = SectionKey> = z.infer<(typeof SECTION_SCHEMAS)[K]>;
export const SECTION_KEYS = Object.keys(SECTION_SCHEMAS) as SectionKey[];
export const isSectionKey = (value: string): value is SectionKey => Object.hasOwn(SECTION_SCHEMAS, value);

/** What staff see each section called, in the order the list shows them. */
export const SECTION_TITLES: Record<SectionKey, string> = {
  company: 'Company profile',
  facts: 'Key facts and statistics',
  home: 'Home slides',
  services: 'Services',
  about: 'About',
  team: 'Team',
  process: 'How We Work',
  projects: 'Showcase projects',
  equipment: 'Equipment',
  gallery: 'Gallery',
  testimonials: 'Testimonials',
  certificates: 'Certificates',
  partners: 'Partners',
  contact: 'Contact offices and hours',
  footer: 'Footer',
};

/** A document's problems as the API's field messages ('phone: Too small'), or null when it is valid. */
export function sectionIssues(key: SectionKey, document: unknown): { field: string; message: string }[] | null {
  const result = SECTION_SCHEMAS[key].safeParse(document);
  if (result.success) return null;
  return result.error.issues.map((issue) => ({
    field: ['document', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}
