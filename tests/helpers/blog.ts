import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { BlogPost } from '../../common/schemas/blog.ts';
import { blogImages, blogPosts } from '../../server/db/schema/blog.ts';
import { BLOG_CHANGED_CHANNEL } from '../../server/events/blog-events.ts';
import { createTestApp, createUser, signIn, type TestApp } from './test-app.ts';
import { storedFiles as filesUnder } from './uploads.ts';

/*
 * One set-up for the blog route tests (posts and images): an app, a signed-in admin and the change
 * events it sends. The bindings below are live: a test file reads `t` and `headers` after
 * `setUpBlogAdmin()` has registered the hooks that fill them.
 */

export const PUBLIC_URL = 'https://www.site.example';
export const HOUR = 60 * 60_000;

export let t: TestApp;
export let admin: { id: string; name: string };
export let headers: { cookie: string; origin: string };
export const events: unknown[] = [];

export function setUpBlogAdmin() {
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
    admin = await createUser(t, { role: 'admin', name: 'Amaka Staff' });
    headers = { cookie: (await signIn(t, admin, 'admin')).cookie, origin: PUBLIC_URL };
    t.app.events.subscribe(BLOG_CHANGED_CHANNEL, (e) => {
      if (e.kind === 'event') events.push(e.payload);
    });
    await t.app.events.ready();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.database.db.delete(blogPosts);
    await t.database.db.delete(blogImages);
    events.length = 0;
    await freshSession();
  });
}

/** Tests move the clock by hours; an admin session lasts two idle hours, so tests sign in afresh. */
export async function freshSession() {
  headers = { cookie: (await signIn(t, admin, 'admin')).cookie, origin: PUBLIC_URL };
}

export const valid = (over: Record<string, unknown> = {}) => ({
  title: 'Laying the new jetty piles',
  author: 'Site Team',
  category: 'Marine & Logistics',
  excerpt: 'How the crew drove forty piles in a week.',
  content: '<h2>The plan</h2><p>We <strong>drove</strong> forty piles.</p>',
  ...over,
});

export const create = (payload: object, h: Record<string, string> = headers) => t.app.inject({ method: 'POST', url: '/api/blog/posts', headers: h, payload });
export const update = (id: string, payload: object) => t.app.inject({ method: 'PUT', url: `/api/blog/posts/${id}`, headers, payload });
export const getPost = (id: string) => t.app.inject({ method: 'GET', url: `/api/blog/posts/${id}`, headers });
export const list = (query = '') => t.app.inject({ method: 'GET', url: `/api/blog/posts${query}`, headers });
export const postCount = async () => (await t.database.db.select({ n: count() }).from(blogPosts))[0].n;
export const imageCount = async () => (await t.database.db.select({ n: count() }).from(blogImages))[0].n;

export async function created(over: Record<string, unknown> = {}): Promise<BlogPost> {
  const res = await create(valid(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post;
}

/** Files under the uploads folder (renditions), recursively. */
export const storedFiles = () => filesUnder(t.uploadsDir);

/** How many change events named this post (creation included). */
export const eventsFor = (id: string) => events.filter((e) => (e as { id: string }).id === id).length;

export async function eventually(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
}
