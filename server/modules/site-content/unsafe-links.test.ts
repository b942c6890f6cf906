import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { siteContentDrafts, siteContentPublished, siteContentSchedules } from '../../db/schema/site-content.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import { LINK_MESSAGES } from '../../../common/schemas/link-check.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { staff } from '../../../tests/helpers/site-content.ts';
import { appOnSameDatabase } from '../../../tests/helpers/second-app.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import { counts, nextIp, submit, VALID } from '../../../tests/helpers/vendor-application.ts';
import { publishDueSchedules } from './site-content.service.ts';
import { withoutUnsafeLinks } from './unsafe-links.ts';

// Issue 45, decision 300: the API refuses a link that is no web link at its field and stores
// nothing; published content that holds one anyway (stored before the rule, or written into the
// database by other means) loses it at start, in every process's snapshot and in a due schedule.

let t: TestApp;
let editor: Actor;
beforeAll(async () => {
  t = await createTestApp();
  editor = await staff(t, 'editor', 'Ada Editor');
});
afterAll(() => t?.close());

const base = '/api/site-content/sections';
const BAD = ['javascript:window.x=1;document.title="pwned"', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'JaVaScRiPt:alert(1)', '  JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', '\u0001javascript:alert(1)'];
const company = SECTION_SEEDS.company;
const team = SECTION_SEEDS.team;
const withMember = (key: string, value: string) => ({ members: team.members.map((m, i) => (i === 1 ? { ...m, [key]: value } : m)) });

const FIELDS: { section: 'company' | 'team'; field: string; document: (value: string) => object }[] = [
  { section: 'company', field: 'siteUrl', document: (v) => ({ ...company, siteUrl: v }) },
  ...(['facebook', 'twitter', 'whatsapp'] as const).map((key) => ({
    section: 'company' as const,
    field: `social.${key}`,
    document: (v: string) => ({ ...company, social: { ...company.social, [key]: v } }),
  })),
  ...(['website', 'linkedin', 'twitter', 'whatsapp'] as const).map((key) => ({ section: 'team' as const, field: `members.1.${key}`, document: (v: string) => withMember(key, v) })),
];

const draftOf = async (section: string) => (await t.database.db.select().from(siteContentDrafts).where(eq(siteContentDrafts.section, section)))[0];
const publishedOf = async (section: string) => (await t.database.db.select().from(siteContentPublished).where(eq(siteContentPublished.section, section)))[0];
const droppedEvents = (section: string) =>
  t.database.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'content.unsafe-links-dropped'), eq(auditEvents.entityId, section)));

describe('the API refuses a link that is no web link, at its field, and stores nothing', () => {
  for (const { section, field, document } of FIELDS) {
    it(`${section}: ${field}`, async () => {
      const before = await draftOf(section);
      for (const bad of BAD) {
        const res = await t.app.inject({ method: 'PUT', url: `${base}/${section}/draft`, headers: editor.headers, payload: { version: before.version, document: document(bad) } });
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
        const at = res.json().details.find((d: { field: string }) => d.field === `document.${field}`);
        expect(at, res.body).toBeDefined();
        expect([LINK_MESSAGES.web, LINK_MESSAGES.hidden]).toContain(at.message);
      }
      const after = await draftOf(section);
      expect(after.version).toBe(before.version);
      expect(after.document).toEqual(before.document);
    });
  }

  it('vendor registration: the website', async () => {
    const before = await counts(t);
    for (const bad of BAD) {
      const res = await submit(t, { ...VALID, website: bad }, [], { ip: nextIp() });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/^(Enter a web address starting with https:\/\/ or http:\/\/|The website field must not contain line breaks)/);
    }
    expect(await counts(t)).toEqual(before);
  });
});

describe('stored content that holds an unsafe link anyway', () => {
  const badCompany = {
    ...company,
    siteUrl: '  JaVaScRiPt:alert(1)',
    social: { facebook: 'javascript:window.x=1;document.title="pwned"', twitter: 'https://x.example/kora', whatsapp: 'https://user:pw@wa.example' },
  };
  const badTeam = { members: team.members.map((m, i) => (i === 0 ? { ...m, website: 'data:text/html,x', linkedin: 'https://www.linkedin.com/in/first' } : m)) };

  it('is cleaned field by field: optional links left out, the company address replaced, the rest kept', () => {
    const { document, dropped } = withoutUnsafeLinks('company', badCompany, 'https://site.example');
    expect(document).toEqual({ ...company, siteUrl: 'https://site.example', social: { twitter: 'https://x.example/kora' } });
    expect(dropped.map((d) => d.field)).toEqual(['siteUrl', 'social.facebook', 'social.whatsapp']);
    expect(badCompany.social.facebook).toMatch(/^javascript:/);
    const cleanTeam = withoutUnsafeLinks('team', badTeam, 'https://site.example');
    expect(cleanTeam.dropped).toEqual([{ field: 'members.0.website', value: 'data:text/html,x' }]);
    const { website: _website, ...member } = badTeam.members[0];
    expect((cleanTeam.document as typeof badTeam).members).toEqual([member, ...team.members.slice(1)]);
    const clean = SECTION_SEEDS.team;
    expect(withoutUnsafeLinks('team', clean, 'https://site.example').document).toBe(clean);
  });

  it("is dropped from the running process's snapshot as soon as it reads the section", async () => {
    await t.database.db.update(siteContentPublished).set({ document: badCompany }).where(eq(siteContentPublished.section, 'company'));
    await t.database.db.update(siteContentPublished).set({ document: badTeam }).where(eq(siteContentPublished.section, 'team'));
    await t.app.publishedContent.reload(['company', 'team']);
    const live = t.app.publishedContent.get('company');
    expect(live.social).toEqual({ twitter: 'https://x.example/kora' });
    expect(live.siteUrl).toBe(t.config.publicUrl);
    expect(live.phone).toBe(company.phone);
    expect(t.app.publishedContent.get('team').members[0]).not.toHaveProperty('website');
  });

  it('is removed from the stored published documents at the next start, with an audit event and a warning in the log', async () => {
    const next = await appOnSameDatabase(t, { ADMIN_MFA_REQUIRED: 'false' });
    try {
      const stored = (await publishedOf('company')).document as typeof badCompany;
      expect(stored).toEqual({ ...company, siteUrl: next.app.config.publicUrl, social: { twitter: 'https://x.example/kora' } });
      expect(((await publishedOf('team')).document as typeof badTeam).members[0]).toEqual({ ...badTeam.members[0], website: undefined });
      const [event] = await droppedEvents('company');
      expect(event).toMatchObject({
        actorLabel: 'system',
        before: { siteUrl: badCompany.siteUrl, 'social.facebook': badCompany.social.facebook, 'social.whatsapp': badCompany.social.whatsapp },
        after: { siteUrl: next.app.config.publicUrl, 'social.facebook': null, 'social.whatsapp': null },
      });
      expect(String(event.after?.reason)).toMatch(/^Checked at start: 3 links that were not a web address/);
      expect(await droppedEvents('team')).toHaveLength(1);
      expect(next.messages().filter((m) => m.msg === 'unsafe links dropped from the published website content')).toHaveLength(2);
      // Another start finds nothing left: no second event.
      const third = await appOnSameDatabase(t, { ADMIN_MFA_REQUIRED: 'false' });
      await third.close();
      expect(await droppedEvents('company')).toHaveLength(1);
    } finally {
      await next.close();
    }
  });

  it('is not published by a schedule made before the rule: the rest goes live, the link is left out', async () => {
    const document = { ...company, social: { ...company.social, facebook: 'JaVaScRiPt:alert(1)' }, phone: '+234 800 000 0777' };
    await t.database.db.insert(siteContentSchedules).values({ section: 'company', document, publishAt: new Date(t.clock.now().getTime() + 60_000), createdByLabel: 'Ada Editor' });
    t.clock.advance(2 * 60_000);
    expect(await publishDueSchedules(t.app)).toBe(1);
    const live = (await publishedOf('company')).document as typeof company;
    expect(live.phone).toBe('+234 800 000 0777');
    expect(live.social).toEqual({ twitter: company.social.twitter, whatsapp: company.social.whatsapp });
    expect((await droppedEvents('company')).map((e) => String(e.after?.reason))).toContainEqual(expect.stringMatching(/^Scheduled publish: a link that was/));
    await vi.waitFor(() => expect(t.app.publishedContent.get('company').phone).toBe('+234 800 000 0777'));
  });

  it('in a draft cannot be scheduled or published: the field is named', async () => {
    const draft = await draftOf('company');
    await t.database.db.update(siteContentDrafts).set({ document: { ...company, social: { ...company.social, twitter: 'vbscript:msgbox(1)' } } }).where(eq(siteContentDrafts.section, 'company'));
    const schedule = await t.app.inject({ method: 'PUT', url: `${base}/company/schedule`, headers: editor.headers, payload: { version: draft.version, publishAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString() } });
    expect(schedule.statusCode, schedule.body).toBe(400);
    expect(schedule.json().details).toContainEqual({ field: 'document.social.twitter', message: LINK_MESSAGES.web });
    const publish = await t.app.inject({ method: 'POST', url: `${base}/company/publish`, headers: editor.headers, payload: { version: draft.version } });
    expect(publish.statusCode, publish.body).toBe(400);
    expect(publish.json().details).toContainEqual({ field: 'document.social.twitter', message: LINK_MESSAGES.web });
  });
});
