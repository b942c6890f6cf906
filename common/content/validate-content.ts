import '../zod-setup.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SECTION_KEYS, SECTION_SCHEMAS } from './sections.ts';
import { SECTION_SEEDS } from './section-seeds.ts';
import { IMAGE_MANIFEST } from './image-manifest.ts';

/**
 * Parses every section's starting document with its schema (counts, order and unique names are part
 * of the schemas, common/content/sections.ts) and checks that its pictures exist. Runs at build time
 * and in the unit tests; throws on the first problem with the path of the offending field.
 */
export function validateContent(publicDir = path.resolve('public')) {
  for (const key of SECTION_KEYS) {
    const result = SECTION_SCHEMAS[key].safeParse(SECTION_SEEDS[key]);
    if (!result.success) throw new Error(`Content "${key}" is invalid:\n${z.prettifyError(result.error)}`);
  }

  const seed = SECTION_SEEDS;
  const images = [
    ...seed.services.services.map((x) => x.image),
    ...seed.team.members.map((x) => x.image),
    ...seed.projects.projects.map((x) => x.image),
    ...seed.equipment.items.map((x) => x.image),
    ...seed.gallery.items.map((x) => x.image),
    ...seed.certificates.certificates.map((x) => x.image),
    ...seed.home.slides.map((x) => x.image),
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
  for (const p of seed.partners.partners) if (!existsSync(path.join(publicDir, p.logo))) throw new Error(`Missing partner logo ${p.logo}`);
  if (!existsSync(path.join(publicDir, 'og-image.png'))) throw new Error('Missing public/og-image.png');
}
