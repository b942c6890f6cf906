import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { blogPosts } from './schema/blog.ts';
import { seedFirstStart } from './seed.ts';
import { freePort } from '../../tests/helpers/free-port.ts';
import { startServerProcess, stopServerProcess } from '../../tests/helpers/server-process.ts';
import { createTestApp, createTestDatabase, type TestApp } from '../../tests/helpers/test-app.ts';
import { createAdminAccount } from '../modules/auth/admin-accounts.service.ts';
import { deleteBlogPost } from '../modules/blog/blog.service.ts';
import { SAMPLE_POSTS } from '../modules/blog/blog.seed.ts';

// Issue 21: a fresh development install shows the specification's two sample posts on /articles.

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

async function appIn(env: 'development' | 'production') {
  const t = await createTestApp({ NODE_ENV: env });
  opened.push(t);
  return t;
}

async function publicSlugs(t: TestApp) {
  const rows = await t.database.db.select().from(blogPosts);
  return rows
    .filter((r) => r.status === 'published' && r.visibility === 'visible')
    .map((r) => r.slug)
    .sort();
}

const SAMPLE_SLUGS = SAMPLE_POSTS.map((p) => p.slug).sort();

describe('sample posts on the first start of an empty database', () => {
  it('adds the two published, visible sample posts in development, and a second start adds none', async () => {
    const t = await appIn('development');
    expect(await seedFirstStart(t.app)).toBe(2);
    expect(await publicSlugs(t)).toEqual(SAMPLE_SLUGS);
    expect(await seedFirstStart(t.app)).toBe(0);
    expect(await t.database.db.select().from(blogPosts)).toHaveLength(2);
  });

  it('adds nothing in production', async () => {
    const t = await appIn('production');
    expect(await seedFirstStart(t.app)).toBe(0);
    expect(await t.database.db.select().from(blogPosts)).toHaveLength(0);
  });

  it('does not bring the posts back after staff deleted them', async () => {
    const t = await appIn('development');
    expect(await seedFirstStart(t.app)).toBe(2);
    await createAdminAccount(t.app, { email: 'first.admin@example.test', name: 'First Admin', password: 'a long admin passphrase' });
    for (const row of await t.database.db.select().from(blogPosts)) await deleteBlogPost(t.app, row.id);
    expect(await seedFirstStart(t.app)).toBe(0);
    expect(await t.database.db.select().from(blogPosts)).toHaveLength(0);
  });

  it('is what a development server does when it starts on an empty database', { timeout: 180_000 }, async () => {
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'first-start-'));
    const count = async () => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return (await c.query<{ slug: string }>("SELECT slug FROM blog_posts WHERE status = 'published' AND visibility = 'visible' ORDER BY slug")).rows.map((r) => r.slug);
      } finally {
        await c.end();
      }
    };
    try {
      for (let start = 0; start < 2; start++) {
        const server = startServerProcess({ NODE_ENV: 'development', DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: String(await freePort()) });
        try {
          await server.ready;
        } finally {
          await stopServerProcess(server);
        }
        expect(await count()).toEqual(SAMPLE_SLUGS);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });
});
