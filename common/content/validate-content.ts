import '../zod-setup.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import * as schemas from './schemas.ts';
import { company } from './company.ts';
import { companyFacts, equipmentStatistics, headlineFacts, projectStatistics, whyChooseUs } from './facts.ts';
import { services } from './services.ts';
import { team } from './team.ts';
import { projectCategories, showcaseProjects } from './projects.ts';
import { equipment } from './equipment.ts';
import { gallery } from './gallery.ts';
import { testimonials } from './testimonials.ts';
import { certificates, regulatoryCompliance } from './certificates.ts';
import { partners } from './partners.ts';
import { processBenefits, processSteps } from './process.ts';
import { slides } from './home.ts';
import { about } from './about.ts';
import { IMAGE_MANIFEST } from './image-manifest.ts';

const unique = <T>(items: T[], key: (item: T) => string, what: string) => {
  const seen = new Set<string>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) throw new Error(`Duplicate ${what}: ${k}`);
    seen.add(k);
  }
};

/** A list of `item`s: exactly `count` of them, or from `count[0]` up to `count[1]` (no limit when left out). */
const listOf = (item: z.ZodType, count: number | [min: number, max?: number]) => {
  if (typeof count === 'number') return z.array(item).length(count);
  const atLeast = z.array(item).min(count[0]);
  return count[1] === undefined ? atLeast : atLeast.max(count[1]);
};

/**
 * Parses every content module with its schema and checks what the screens rely on (counts, order,
 * unique ids, pictures that exist). Runs at build time and in the unit tests; throws on the first
 * problem with the path of the offending field.
 */
export function validateContent(publicDir = path.resolve('public')) {
  const checks: [string, z.ZodType, unknown][] = [
    ['company', schemas.companySchema, company],
    ['companyFacts', schemas.companyFactsSchema, companyFacts],
    ['headlineFacts', listOf(schemas.factSchema, [1]), headlineFacts],
    ['projectStatistics', listOf(schemas.factSchema, 4), projectStatistics],
    ['equipmentStatistics', listOf(schemas.factSchema, 4), equipmentStatistics],
    ['whyChooseUs', listOf(schemas.pointSchema, 4), whyChooseUs],
    ['services', listOf(schemas.serviceSchema, 6), services],
    ['team', listOf(schemas.teamMemberSchema, 5), team],
    ['showcaseProjects', listOf(schemas.showcaseProjectSchema, [17, 21]), showcaseProjects],
    ['projectCategories', listOf(schemas.pointSchema, 3), projectCategories],
    ['equipment', listOf(schemas.equipmentItemSchema, [3]).refine((a) => a.length % 3 === 0, 'a multiple of three'), equipment],
    ['gallery', listOf(schemas.galleryItemSchema, [4]), gallery],
    ['testimonials', listOf(schemas.testimonialSchema, [2]), testimonials],
    ['certificates', listOf(schemas.certificateSchema, 3), certificates],
    ['regulatoryCompliance', listOf(schemas.pointSchema, 3), regulatoryCompliance],
    ['partners', listOf(schemas.partnerSchema, [4]), partners],
    ['processSteps', listOf(schemas.processStepSchema, 5), processSteps],
    ['processBenefits', listOf(schemas.pointSchema, 4), processBenefits],
    ['slides', listOf(schemas.slideSchema, 6), slides],
    ['about', schemas.aboutSchema, about],
  ];
  for (const [name, schema, value] of checks) {
    const result = schema.safeParse(value);
    if (!result.success) throw new Error(`Content "${name}" is invalid:\n${z.prettifyError(result.error)}`);
  }

  if (services.map((s) => s.id).join() !== schemas.SERVICE_IDS.join()) throw new Error('services must follow SERVICE_IDS order');
  if (slides.map((s) => s.theme).join() !== 'safety,execution,expertise,quality,challenges,energy') throw new Error('slides out of order');
  processSteps.forEach((s, i) => {
    if (s.step !== i + 1) throw new Error(`process step ${s.title} must be number ${i + 1}`);
  });
  unique(showcaseProjects, (p) => p.title, 'project title');
  unique(team, (m) => m.name, 'team member');
  unique(equipment, (e) => e.name, 'equipment name');
  unique(partners, (p) => p.name, 'partner');

  const images = [
    ...services.map((s) => s.image),
    ...team.map((m) => m.image),
    ...showcaseProjects.map((p) => p.image),
    ...equipment.map((e) => e.image),
    ...gallery.map((g) => g.image),
    ...certificates.map((c) => c.image),
    ...slides.map((s) => s.image),
  ];
  for (const key of images) {
    const entry = (IMAGE_MANIFEST as Record<string, { widths: readonly number[] }>)[key];
    if (!entry) throw new Error(`Picture "${key}" is not in the image manifest: run scripts/build-site-images.ts`);
    for (const w of entry.widths) {
      for (const ext of ['avif', 'webp']) {
        const file = path.join(publicDir, 'images', `${key}-${w}.${ext}`);
        if (!existsSync(file)) throw new Error(`Missing picture file ${file}`);
      }
    }
  }
  for (const p of partners) if (!existsSync(path.join(publicDir, p.logo))) throw new Error(`Missing partner logo ${p.logo}`);
  if (!existsSync(path.join(publicDir, 'og-image.png'))) throw new Error('Missing public/og-image.png');
}
