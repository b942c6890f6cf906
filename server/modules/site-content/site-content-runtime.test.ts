import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createDatabase } from '../../db/client.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import type { SectionDocument } from '../../../common/content/sections.ts';
import { ensureAppBuild } from '../../../tests/helpers/app-build.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { staff } from '../../../tests/helpers/site-content.ts';
import { actor, type Actor } from '../../../tests/helpers/portal.ts';
import { photoLike, uploadMedia } from '../../../tests/helpers/media.ts';
import { startContentSchedules } from './site-content.ticker.ts';

// Decision 289 (issue 24): the content pages are rendered at runtime from the published content
// snapshot, kept as HTML in the site page cache, and emptied on every publish, on every process.
// The real web app is built once (tests/helpers/app-build.ts) and served by two app instances on
// one database, as behind a load balancer.

let t: TestApp;
let other: { app: App; close(): Promise<void> };
let editor: Actor;
beforeAll(async () => {
  ensureAppBuild();
  t = await createTestApp({}, { web: true });
  const database = createDatabase(t.databaseUrl, { max: 2 });
  const app = await buildApp({ config: t.config, database, logger: false, clock: t.clock, web: true });
  await app.ready();
  other = { app, close: () => app.close().then(() => database.close()) };
  editor = await staff(t, 'editor', 'Ada Editor');
}, 300_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const sectionUrl = (section: string, rest = '') => `/api/site-content/sections/${section}${rest}`;

/** Saves `document` as the section's draft (from its current version); answers the new version. */
async function saveDraft(section: string, document: object): Promise<number> {
  const current = await t.app.inject({ method: 'GET', url: sectionUrl(section), headers: editor.headers });
  const saved = await t.app.inject({ method: 'PUT', url: sectionUrl(section, '/draft'), headers: editor.headers, payload: { version: current.json().draft.version, document } });
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json().draft.version as number;
}

async function publish(section: string, document: object) {
  const version = await saveDraft(section, document);
  const published = await t.app.inject({ method: 'POST', url: sectionUrl(section, '/publish'), headers: editor.headers, payload: { version } });
  expect(published.statusCode, published.body).toBe(200);
}

const get = (app: App, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const jsonLdOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]) as { telephone: string };
const footerOf = (html: string) => html.slice(html.indexOf('<footer'));

describe('content pages rendered from the published snapshot', () => {
  it('serve like a pre-rendered file: strong ETag, brotli and gzip, a 304, hashed scripts and no nonce', async () => {
    const plain = await get(t.app, '/about');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(plain.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const csp = String(plain.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(csp).not.toContain('nonce-');
    expect(plain.body).not.toContain('nonce=');
    // No framework JavaScript: the enhancement entry only.
    expect(plain.body).not.toContain('__reactRouterContext');
    expect(plain.body).toContain('type="module"');
    const br = await get(t.app, '/about', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect((await get(t.app, '/about', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    const again = await get(t.app, '/about', { 'if-none-match': String(plain.headers['etag']) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get(t.app, '/about/')).headers['etag']).toBe(plain.headers['etag']);
  });

  it('show a published phone number on /contact, in the footer of /, in the JSON-LD, and on the other process within 2 s', async () => {
    const before = await get(t.app, '/');
    const beforeContact = await get(t.app, '/contact');
    const oldPhone = SECTION_SEEDS.company.phone;
    expect(footerOf(before.body)).toContain(oldPhone);
    // The other process has its pages kept too, before the publish.
    expect((await get(other.app, '/contact')).body).toContain(oldPhone);

    const phone = '+234 809 555 0142';
    const company: SectionDocument<'company'> = { ...SECTION_SEEDS.company, phone };
    await publish('company', company);

    const contact = await get(t.app, '/contact');
    expect(contact.body).toContain(phone);
    expect(contact.body).not.toContain(oldPhone);
    expect(contact.headers['etag']).not.toBe(beforeContact.headers['etag']);
    const home = await get(t.app, '/');
    expect(footerOf(home.body)).toContain(phone);
    expect(jsonLdOf(home.body).telephone).toBe(phone);
    expect(home.headers['etag']).not.toBe(before.headers['etag']);
    const started = Date.now();
    await vi.waitFor(async () => expect((await get(other.app, '/contact')).body).toContain(phone), { timeout: 2000, interval: 20 });
    const elsewhere = Date.now() - started;
    expect(footerOf((await get(other.app, '/')).body)).toContain(phone);
    expect(jsonLdOf((await get(other.app, '/')).body).telephone).toBe(phone);
    console.info(`the second process showed the new phone ${elsewhere} ms after the publish answered`);
  });

  it('give the sitemap the published site address', async () => {
    await publish('company', { ...SECTION_SEEDS.company, phone: '+234 809 555 0142', siteUrl: 'https://www.kora-delta-new.example' });
    const sitemap = await get(t.app, '/sitemap.xml');
    expect(sitemap.body).toContain('<loc>https://www.kora-delta-new.example/contact</loc>');
    expect((await get(t.app, '/about')).body).toContain('href="https://www.kora-delta-new.example/about"');
    await publish('company', { ...SECTION_SEEDS.company, phone: '+234 809 555 0142' });
  });

  it('draw a team member whose photo is a media-library item as a <picture> of its served renditions', async () => {
    const uploaded = await uploadMedia(t, editor.headers, { filename: 'engineer.jpg', contentType: 'image/jpeg', data: await photoLike(1200, 1200) }, 'Our new site engineer on a jetty');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const id = uploaded.json().item._id as string;
    const member = { ...SECTION_SEEDS.team.members[0], name: 'Ngozi Okafor', image: `media/${id}` };
    await publish('team', { members: [...SECTION_SEEDS.team.members, member] });
    const about = await get(t.app, '/about');
    expect(about.body).toContain('Ngozi Okafor');
    const picture = new RegExp(`<picture><source type="image/avif" srcSet="([^"]*/api/media/${id}/[^"]*)"[^>]*/><img src="(/api/media/${id}/\\d+\\.webp)" srcSet="([^"]+)"[^>]*width="(\\d+)" height="(\\d+)"`).exec(about.body);
    expect(picture, 'the media picture').not.toBeNull();
    const [, avif, src, webp] = picture!;
    expect(avif).toMatch(/ \d+w/);
    expect(webp).toMatch(/ \d+w/);
    for (const url of [src, avif.split(', ')[0].split(' ')[0], webp.split(', ')[0].split(' ')[0]]) {
      const variant = await get(t.app, url);
      expect(variant.statusCode, url).toBe(200);
      expect(String(variant.headers['content-type'])).toMatch(/^image\/(avif|webp)$/);
    }
  });
});

describe('a scheduled publish', () => {
  it('shows a scheduled certificate on /certifications from its time (fake clock), not before, on both processes', async () => {
    const title = 'Lagos State Fire Safety Compliance';
    // The list holds exactly three certificates: the new one takes the third's place.
    const certificates = SECTION_SEEDS.certificates.certificates.map((c, i) =>
      i === 2 ? { ...c, title, issuer: 'Lagos State Fire and Rescue Service', date: '2026', description: 'Fire safety of our yards and site offices, inspected yearly.' } : c,
    );
    const version = await saveDraft('certificates', { ...SECTION_SEEDS.certificates, certificates });
    const publishAt = new Date(t.clock.now().getTime() + 2 * 60 * 60_000).toISOString();
    const scheduled = await t.app.inject({ method: 'PUT', url: sectionUrl('certificates', '/schedule'), headers: editor.headers, payload: { version, publishAt } });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    // Each process ticks as a running server does (server/start.ts), here every 20 ms.
    const stops = [startContentSchedules(t.app, 20), startContentSchedules(other.app, 20)];
    try {
      t.clock.advance(2 * 60 * 60_000 - 60_000);
      await new Promise((r) => setTimeout(r, 200));
      for (const app of [t.app, other.app]) expect((await get(app, '/certifications')).body).not.toContain(title);

      t.clock.advance(60_000);
      for (const app of [t.app, other.app]) {
        await vi.waitFor(async () => expect((await get(app, '/certifications')).body).toContain(title), { timeout: 5000, interval: 20 });
      }
    } finally {
      await Promise.all(stops.map((stop) => stop()));
    }
    // Two hours without a request ended the editor's session (admins idle out after 2 h) on the same clock.
    expect((await get(t.app, sectionUrl('certificates'), editor.headers)).statusCode).toBe(401);
    editor = await staff(t, 'editor', 'Ada Editor');
    const history = await t.app.inject({ method: 'GET', url: sectionUrl('certificates', '/revisions'), headers: editor.headers });
    expect(history.json().revisions[0]).toMatchObject({ source: 'schedule', publishedBy: 'Ada Editor (scheduled)' });
    await publish('certificates', SECTION_SEEDS.certificates);
  });
});

describe('the cost of rendering at runtime (printed, never asserted: decision 289 quotes it)', () => {
  it('renders a page once after a change, then serves it from memory', async () => {
    const figures: string[] = [];
    for (const path of ['/', '/about', '/contact', '/projects']) {
      t.app.sitePages!.clear();
      let started = performance.now();
      await t.app.sitePages!.get(path);
      const first = performance.now() - started;
      const rounds = 50;
      started = performance.now();
      for (let i = 0; i < rounds; i++) await get(t.app, path, { 'accept-encoding': 'br, gzip' });
      const cached = (performance.now() - started) / rounds;
      figures.push(`${path}: first render ${first.toFixed(1)} ms (render, brotli 5 and gzip 9; brotli 11 follows in the background), then ${cached.toFixed(2)} ms a request from memory`);
    }
    console.info(figures.join('\n'));
    expect(figures).toHaveLength(4);
  });
});

describe('preview of a draft', () => {
  const phone = '+234 700 000 9999';
  it('shows the draft on its real page to staff who edit the website, with a banner, never kept or indexed', async () => {
    await saveDraft('company', { ...SECTION_SEEDS.company, phone });
    const preview = await get(t.app, '/preview/company?path=/contact', editor.headers);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.body).toContain(phone);
    expect(preview.body).toContain('Preview — not published.');
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(preview.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(String(preview.headers['content-security-policy'])).toMatch(/'nonce-/);
    // The home page by default for the footer's section; the footer of the preview shows the draft company too.
    const home = await get(t.app, '/preview/company?path=/', editor.headers);
    expect(footerOf(home.body)).toContain(phone);
    // Visitors still see the published page.
    const live = await get(t.app, '/contact');
    expect(live.body).not.toContain(phone);
    expect(live.body).not.toContain('Preview — not published');
  });

  it('is refused to visitors (401), clients and staff without content.write (403), and for a page that is not a site page (400)', async () => {
    expect((await get(t.app, '/preview/company?path=/contact')).statusCode).toBe(401);
    const client = await actor(t, 'client', 'Client Cara');
    expect((await get(t.app, '/preview/company?path=/contact', client.headers)).statusCode).toBe(403);
    const support = await staff(t, 'support', 'Sam Support');
    expect((await get(t.app, '/preview/company?path=/contact', support.headers)).statusCode).toBe(403);
    expect((await get(t.app, '/preview/company?path=/secured/v1/admin', editor.headers)).statusCode).toBe(400);
    expect((await get(t.app, '/preview/nothing?path=/contact', editor.headers)).statusCode).toBe(400);
  });
});
