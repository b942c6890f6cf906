import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogImageUrl } from '../../../common/schemas/blog.ts';
import { blogPosts } from '../../db/schema/blog.ts';
import { seedDatabase } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { SAMPLE_POSTS } from './blog.seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the seed', () => {
  it("adds the specification's two sample posts, published and visible with a banner, once", async () => {
    const first = await seedDatabase(t.app);
    expect(first.report).toContain('2 sample blog posts, published and visible');
    const second = await seedDatabase(t.app);
    expect(second.report).toContain('sample blog posts already present');

    const rows = await t.database.db.select().from(blogPosts);
    expect(rows.map((r) => r.slug).sort()).toEqual(SAMPLE_POSTS.map((p) => p.slug).sort());
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'published', visibility: 'visible', createdBy: first.admin.id });
      expect(row.publishAt).not.toBeNull();
      expect(row.bannerImageId).not.toBeNull();
      const banner = await t.app.inject({ method: 'GET', url: blogImageUrl(row.bannerImageId!, 960, 'webp') });
      expect(banner.statusCode).toBe(200);
    }
  });
});
