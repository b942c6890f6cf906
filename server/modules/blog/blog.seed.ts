import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { loadSharp } from '../../lib/lazy-modules.ts';
import type { BlogCategory } from '../../../common/schemas/blog.ts';
import { blogPosts } from '../../db/schema/blog.ts';
import type { SeedContext } from '../../db/seed-context.ts';
import { storeBlogImage } from './blog-images.ts';
import { createBlogPost } from './blog.service.ts';
import { recordBlogImage } from './blog-images.service.ts';

/** The specification's two sample posts (section 2, "Blog list"): published and visible. Copy of our own. */
export const SAMPLE_POSTS: ReadonlyArray<{
  slug: string;
  title: string;
  author: string;
  category: BlogCategory;
  excerpt: string;
  content: string;
  colours: [string, string];
}> = [
  {
    slug: 'how-we-plan-a-pipeline-tie-in',
    title: 'How we plan a pipeline tie-in without stopping production',
    author: 'Projects Team',
    category: 'Oil & Gas Services',
    excerpt: 'A look at the weeks of preparation behind a few hours of live work: surveys, isolation plans, rehearsals and the permit to work.',
    content: [
      '<p>A tie-in connects new pipework to a line that is already carrying product. The work on the day may take a few hours; the planning behind it takes weeks.</p>',
      '<h2>Survey first</h2>',
      '<p>Our engineers measure the existing line, check wall thickness at the tie-in point and agree the exact position with the operator. Every measurement goes into the isolation plan.</p>',
      '<h2>Rehearse the day</h2>',
      '<ul><li>Prefabricate the spool in the yard and test it there.</li><li>Walk the sequence with every crew member on site.</li><li>Keep a written fall-back for each step.</li></ul>',
      '<blockquote><p>The best tie-in is the one where nothing surprising happens.</p></blockquote>',
      '<p>On the day, the permit to work, gas testing and a <strong>single person in charge</strong> keep the job calm and short.</p>',
    ].join(''),
    colours: ['#0b4f8a', '#f59e0b'],
  },
  {
    slug: 'safety-first-on-a-busy-marine-base',
    title: 'Safety first on a busy marine base',
    author: 'HSE Department',
    category: 'Safety',
    excerpt: 'Simple habits that keep crews, vessels and cargo safe when several operations share one quay.',
    content: [
      '<p>A marine base is a shared space: vessels berth, cranes lift and trucks come and go, often at the same time.</p>',
      '<h2>One plan for the quay</h2>',
      '<p>Each morning the base supervisor agrees a single plan for the quay with every team that will use it, so lifts and vehicle movements never overlap.</p>',
      '<h2>Habits that matter</h2>',
      '<ol><li>Life jackets on within two metres of the edge.</li><li>Tag lines on every suspended load.</li><li>Stop-work authority for everyone, from visitor to manager.</li></ol>',
      '<p>These habits cost minutes and save lives. They are part of every induction we give.</p>',
    ].join(''),
    colours: ['#0f766e', '#e0f2fe'],
  },
];

/** A banner drawn by code: a gradient with a few calm shapes (no photograph, no real place). */
function bannerSvg([from, to]: [string, string]): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="1600" height="900" fill="url(#g)"/>
  <g fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="18">
    <path d="M0 640 C 300 560, 520 720, 800 640 S 1300 560, 1600 640"/>
    <path d="M0 720 C 300 640, 520 800, 800 720 S 1300 640, 1600 720"/>
  </g>
  <g fill="#ffffff" fill-opacity="0.25"><rect x="1120" y="220" width="220" height="300" rx="12"/><rect x="1360" y="300" width="140" height="220" rx="12"/><circle cx="360" cy="300" r="120"/></g>
</svg>`);
}

/** Who the sample posts are recorded as made by: the demo admin, or nobody (a first start has no staff yet). */
export interface SampleAuthor {
  id: string | null;
  name: string;
}

/**
 * Adds the two sample posts with generated banners, unless posts with their slugs exist already;
 * returns how many it added. One implementation for `npm run db:seed` and a development server's
 * first start on an empty database (server/start.ts).
 */
export async function addSamplePosts(app: FastifyInstance, author: SampleAuthor): Promise<number> {
  let added = 0;
  for (const sample of SAMPLE_POSTS) {
    const [existing] = await app.db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, sample.slug));
    if (existing) continue;
    const staff = { _id: author.id };
    const sharp = await loadSharp();
    const png = await sharp(bannerSvg(sample.colours)).png().toBuffer();
    const banner = await recordBlogImage(app, staff, await storeBlogImage(app, png, `${sample.slug}.png`), `${sample.slug}.png`);
    await createBlogPost(app, staff, {
      title: sample.title,
      slug: sample.slug,
      author: sample.author,
      category: sample.category,
      excerpt: sample.excerpt,
      content: sample.content,
      bannerImageId: banner._id,
      status: 'published',
      visibility: 'visible',
      publishAt: null,
    });
    added++;
  }
  return added;
}

/** The seed step: the sample posts, made by the demo admin. */
export async function seedSamplePosts({ app, admin, report }: SeedContext): Promise<void> {
  const added = await addSamplePosts(app, { id: admin.id, name: admin.name });
  report(added ? `${added} sample blog posts, published and visible` : 'sample blog posts already present');
}
