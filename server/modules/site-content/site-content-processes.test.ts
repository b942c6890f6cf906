import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { siteContentRevisions, siteContentSchedules } from '../../db/schema/site-content.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import type { SectionKey } from '../../../common/content/sections.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { secondInstance, staff } from '../../../tests/helpers/site-content.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import { publishDueSchedules } from './site-content.service.ts';
import { startContentSchedules } from './site-content.ticker.ts';

// Issue 24 across processes: two application instances on one database (as behind a load
// balancer). A schedule is published once whichever ticks, and a publish through one reaches the
// other's in-memory snapshot within 2 seconds (decisions 283 and 284).

let t: TestApp;
let other: Awaited<ReturnType<typeof secondInstance>>;
let editor: Actor;
beforeAll(async () => {
  t = await createTestApp();
  other = await secondInstance(t);
  editor = await staff(t, 'editor', 'Ada Editor');
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const put = (url: string, payload: object, method: 'PUT' | 'POST' = 'PUT') =>
  t.app.inject({ method, url: `/api/site-content/sections${url}`, headers: editor.headers, payload });
const revisionsOf = async (section: string) =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(siteContentRevisions).where(eq(siteContentRevisions.section, section)))[0].n;

describe('scheduled publishes', () => {
  it('happen once, at their time, with two processes ticking at the same moment', async () => {
    const sections: SectionKey[] = ['testimonials', 'gallery', 'partners', 'equipment'];
    const at = new Date(t.clock.now().getTime() + 30 * 60_000).toISOString();
    for (const section of sections) {
      const saved = await put(`/${section}/draft`, { version: 1, document: SECTION_SEEDS[section] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect((await put(`/${section}/schedule`, { version: 2, publishAt: at })).statusCode).toBe(200);
    }
    // Before the time: nothing, on either process.
    t.clock.advance(29 * 60_000);
    expect(await Promise.all([publishDueSchedules(t.app), publishDueSchedules(other.app)])).toEqual([0, 0]);
    t.clock.advance(60_000);
    const done = await Promise.all([publishDueSchedules(t.app), publishDueSchedules(other.app), publishDueSchedules(t.app)]);
    expect(done.reduce((a, b) => a + b, 0)).toBe(sections.length);
    expect(await Promise.all([publishDueSchedules(t.app), publishDueSchedules(other.app)])).toEqual([0, 0]);
    for (const section of sections) expect(await revisionsOf(section)).toBe(2);
    const rows = await t.database.db.select().from(siteContentSchedules);
    expect(rows.map((r) => r.status)).toEqual(sections.map(() => 'done'));
    const list = await t.app.inject({ method: 'GET', url: '/api/site-content/sections/testimonials/revisions', headers: editor.headers });
    expect(list.json().revisions[0]).toMatchObject({ number: 2, source: 'schedule', publishedBy: 'Ada Editor (scheduled)' });
  });

  it('publish the draft as it was when scheduled, not later edits', async () => {
    const doc = { ...SECTION_SEEDS.footer, newsletterText: 'Scheduled words.' };
    expect((await put('/footer/draft', { version: 1, document: doc })).statusCode).toBe(200);
    expect((await put('/footer/schedule', { version: 2, publishAt: new Date(t.clock.now().getTime() + 60_000).toISOString() })).statusCode).toBe(200);
    expect((await put('/footer/draft', { version: 2, document: { ...doc, newsletterText: 'Later words.' } })).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect(await publishDueSchedules(other.app)).toBe(1);
    for (const app of [t.app, other.app]) {
      await vi.waitFor(() => expect(app.publishedContent.get('footer').newsletterText).toBe('Scheduled words.'), { timeout: 2000 });
    }
  });
  it("are found by each process's ticker on its own", async () => {
    const doc = { ...SECTION_SEEDS.contact, hours: ['Weekdays 8am to 6pm'] };
    expect((await put('/contact/draft', { version: 1, document: doc })).statusCode).toBe(200);
    expect((await put('/contact/schedule', { version: 2, publishAt: new Date(t.clock.now().getTime() + 60_000).toISOString() })).statusCode).toBe(200);
    const stops = [startContentSchedules(t.app, 20), startContentSchedules(other.app, 20)];
    try {
      t.clock.advance(60_000);
      await vi.waitFor(() => expect(other.app.publishedContent.get('contact').hours).toEqual(['Weekdays 8am to 6pm']), { timeout: 2000 });
    } finally {
      await Promise.all(stops.map((stop) => stop()));
    }
    expect(await revisionsOf('contact')).toBe(2);
  });
});

describe('the published snapshot', () => {
  it('updates on the other process within 2 seconds of a publish, and tells its subscribers', async () => {
    const heard: string[] = [];
    const unsubscribe = other.app.publishedContent.subscribe((section) => heard.push(section));
    const saved = await put('/company/draft', { version: 1, document: { ...SECTION_SEEDS.company, phone: '+234 800 000 0177' } });
    expect(saved.statusCode).toBe(200);
    expect(other.app.publishedContent.get('company').phone).toBe(SECTION_SEEDS.company.phone);
    const started = performance.now();
    expect((await put('/company/publish', { version: 2 }, 'POST')).statusCode).toBe(200);
    await vi.waitFor(() => expect(other.app.publishedContent.get('company').phone).toBe('+234 800 000 0177'), { timeout: 2000, interval: 10 });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(2000);
    expect(heard).toEqual(['company']);
    unsubscribe();
    console.info(`snapshot on the second instance updated ${Math.round(elapsed)} ms after the publish request`);
  });
});
