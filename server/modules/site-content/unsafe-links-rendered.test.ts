import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createDatabase } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { siteContentDrafts, siteContentPublished } from '../../db/schema/site-content.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import { renderMail } from '../../mail/layout.ts';
import { ensureAppBuild } from '../../../tests/helpers/app-build.ts';
import { ask } from '../../../tests/helpers/chat.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import { staff } from '../../../tests/helpers/site-content.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { companyProfilePdf } from '../company-profile/company-profile.service.ts';

// Issue 45, decision 300, its "Done when": unsafe links seeded straight into the published content
// in the database reach no page, PDF, mail, JSON-LD or chat answer, and the rest of each record
// still shows. Then the renderers' own check (safeHref), without the snapshot's: a draft holding the
// same links on its preview, and the profile PDF made from them directly.

const company = {
  ...SECTION_SEEDS.company,
  siteUrl: 'java\tscript:alert("pwned-site")//',
  social: { facebook: 'javascript:window.x=1;document.title="pwned"', twitter: 'https://x.example/kora', whatsapp: '  JaVaScRiPt:alert("pwned-wa")' },
};
const DATA_LINK = 'data:text/html,<script>alert("pwned-data")</script>';
const [first, ...others] = SECTION_SEEDS.team.members;
const team = {
  members: [
    { ...first, website: DATA_LINK, linkedin: 'vbscript:msgbox("pwned-vb")', twitter: '\u0001javascript:alert("pwned-ctl")', whatsapp: 'https://wa.me/2348000000101' },
    ...others,
  ],
};
/** Anything of the seeded links, in any case, however a renderer escaped it. */
const UNSAFE = /pwned|(java|vb)\s*script\s*:|data:text\/html/i;

let t: TestApp;
let editor: Actor;
beforeAll(async () => {
  ensureAppBuild();
  t = await createTestApp({}, { web: true });
  editor = await staff(t, 'editor', 'Ada Editor');
  // Straight into the database, as an old release or a hand-made UPDATE would leave them.
  for (const [section, document] of [['company', company], ['team', team]] as const) {
    await t.database.db.update(siteContentPublished).set({ document }).where(eq(siteContentPublished.section, section));
    await t.database.db.update(siteContentDrafts).set({ document }).where(eq(siteContentDrafts.section, section));
  }
  // What a publish announcement makes every process do: read the sections again.
  await t.app.publishedContent.reload(['company', 'team']);
}, 300_000);
afterAll(() => t?.close());

const get = (app: App, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as { '@type': string; url?: string; sameAs?: string[] });

describe('unsafe links seeded into the published content in the database', () => {
  it('reach no page: /, /about and /contact show the rest of the records and the good links only', async () => {
    for (const path of ['/', '/about', '/contact', '/services', '/certifications']) {
      const res = await get(t.app, path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).not.toMatch(UNSAFE);
      expect(res.body, path).toContain('href="https://x.example/kora"');
      expect(res.body, path).toContain(SECTION_SEEDS.company.phone);
    }
    const about = (await get(t.app, '/about')).body;
    expect(about).toContain(first.name);
    expect(about).toContain('href="https://wa.me/2348000000101"');
    expect(about).toContain(`aria-label="${first.name} on WhatsApp"`);
    expect(about).not.toContain(`aria-label="${first.name} on LinkedIn"`);
    // The footer's list and the contact page's 'Follow Us' hold the one good network.
    const contact = (await get(t.app, '/contact')).body;
    expect(contact.match(/href="https:\/\/x\.example\/kora"/g)).toHaveLength(2);
  });

  it('reach no JSON-LD, sitemap or feed: the site address is the server’s own', async () => {
    const [organization] = jsonLdOf((await get(t.app, '/')).body).filter((d) => d['@type'] === 'Organization');
    expect(organization.url).toBe(t.config.publicUrl);
    expect(organization.sameAs).toEqual(['https://x.example/kora']);
    expect(JSON.stringify(organization)).not.toMatch(UNSAFE);
    for (const path of ['/sitemap.xml', '/articles/rss.xml']) {
      const res = await get(t.app, path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).not.toMatch(UNSAFE);
      expect(res.body, path).toContain(`${t.config.publicUrl}/articles`);
    }
  });

  it('reach no PDF: the company profile prints the rest', async () => {
    const res = await get(t.app, '/api/company-profile.pdf');
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).not.toMatch(UNSAFE);
    expect(text).toContain(`Phone: ${SECTION_SEEDS.company.phone}`);
    expect(text).toContain(first.name);
  });

  it('reach no mail and no chat answer', async () => {
    const owner = await staff(t, 'owner', 'Obi Owner');
    const res = await t.app.inject({ method: 'POST', url: '/api/newsletter/issues/test', headers: owner.headers, payload: { subject: 'Yard news', body: 'The new crane arrived.' } });
    expect(res.statusCode, res.body).toBe(200);
    const mails = await t.database.db.select().from(mailOutbox);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) expect(`${mail.text}\n${mail.html}`).not.toMatch(UNSAFE);
    for (const question of ['what is your website', 'how do I reach you on social media', 'who is on your team']) {
      const answer = await ask(t.app, question, { ip: '198.51.100.45' });
      expect(answer.text, question).not.toMatch(UNSAFE);
    }
  });

  it('are gone from the stored documents once a process starts, and its pages are as clean', async () => {
    const database = createDatabase(t.databaseUrl, { max: 2 });
    const next = await buildApp({ config: t.config, database, logger: false, clock: t.clock, web: true });
    try {
      await next.ready();
      for (const section of ['company', 'team']) {
        const [row] = await t.database.db.select().from(siteContentPublished).where(eq(siteContentPublished.section, section));
        expect(JSON.stringify(row.document)).not.toMatch(UNSAFE);
      }
      for (const path of ['/', '/about', '/contact']) expect((await get(next, path)).body, path).not.toMatch(UNSAFE);
    } finally {
      await next.close();
      await database.close();
    }
  });
});

describe('the renderers refuse them again, without the snapshot', () => {
  it('on a preview of a draft that holds them (pages and JSON-LD)', async () => {
    for (const url of ['/preview/company?path=/', '/preview/company?path=/contact', '/preview/team?path=/about']) {
      const res = await get(t.app, url, editor.headers);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('Preview — not published.');
      expect(res.body, url).not.toMatch(UNSAFE);
      for (const data of jsonLdOf(res.body)) expect(JSON.stringify(data), url).not.toMatch(UNSAFE);
    }
    expect((await get(t.app, '/preview/team?path=/about', editor.headers)).body).toContain('href="https://wa.me/2348000000101"');
  });

  it('in the profile PDF made from them directly', async () => {
    const raw = { get: (section: string) => (section === 'company' ? company : section === 'team' ? team : SECTION_SEEDS[section as keyof typeof SECTION_SEEDS]) };
    const text = await pdfText((await companyProfilePdf(raw as never)).pdf);
    expect(text).not.toMatch(UNSAFE);
    expect(text).not.toContain('Web:');
    expect(text).toContain(`Email: ${SECTION_SEEDS.company.email}`);
  });

  it('in a mail, which refuses to carry one', () => {
    for (const url of [company.social.facebook, company.social.whatsapp, DATA_LINK]) {
      expect(() => renderMail({ subject: 'S', paragraphs: ['P'], action: { label: 'Open', url } })).toThrow('Mail links must be http(s) URLs');
      expect(() => renderMail({ subject: 'S', paragraphs: ['P'], footerLinks: [{ label: 'Site', url }] })).toThrow('Mail links must be http(s) URLs');
    }
  });
});
