import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { siteContentDrafts, siteContentPublished, siteContentRevisions } from '../../db/schema/site-content.ts';
import { SECTION_KEYS } from '../../../common/content/sections.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { staff } from '../../../tests/helpers/site-content.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import { seedSiteContent } from './site-content.seed.ts';

// Issue 24: the website's content as drafts, publishes, schedules and revisions (decision 283).

let t: TestApp;
let editor: Actor;
let owner: Actor;
beforeAll(async () => {
  t = await createTestApp();
  editor = await staff(t, 'editor', 'Ada Editor');
  owner = await staff(t, 'owner', 'Obi Owner');
});
afterAll(() => t?.close());

const base = '/api/site-content/sections';
const call = (who: Actor, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `${base}${url}`, headers: who.headers, ...(payload ? { payload } : {}) });
const company = () => ({ ...SECTION_SEEDS.company });
const draftOf = async (section: string) => (await t.database.db.select().from(siteContentDrafts).where(eq(siteContentDrafts.section, section)))[0];
const publishedOf = async (section: string) => (await t.database.db.select().from(siteContentPublished).where(eq(siteContentPublished.section, section)))[0];
const revisionCount = async (section: string) =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(siteContentRevisions).where(eq(siteContentRevisions.section, section)))[0].n;

describe('the starting content', () => {
  it('is every content module, published as revision 1, and the first start never adds it twice', async () => {
    const res = await call(editor, 'GET', '');
    expect(res.statusCode, res.body).toBe(200);
    const sections = res.json().sections;
    expect(sections.map((s: { section: string }) => s.section)).toEqual(SECTION_KEYS);
    expect(sections.every((s: { changed: boolean; scheduledAt: null }) => !s.changed && s.scheduledAt === null)).toBe(true);
    for (const key of SECTION_KEYS) expect((await publishedOf(key)).document).toEqual(JSON.parse(JSON.stringify(SECTION_SEEDS[key])));
    expect(await seedSiteContent(t.database.db, t.clock.now())).toBe(0);
    expect(await revisionCount('company')).toBe(1);
  });

  it("reads a section's draft and published document", async () => {
    const res = await call(editor, 'GET', '/testimonials');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ section: 'testimonials', title: 'Testimonials', draft: { version: 1 }, published: { publishedBy: 'System (starting content)' }, schedule: null });
    expect(res.json().draft.document).toEqual(res.json().published.document);
  });
});

describe('drafts', () => {
  it('saves a valid draft as the next version, leaving what visitors see alone', async () => {
    const res = await call(editor, 'PUT', '/company/draft', { version: 1, document: { ...company(), phone: '+234 800 000 0199' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().draft).toMatchObject({ version: 2, savedBy: 'Ada Editor', document: { phone: '+234 800 000 0199' } });
    expect((await publishedOf('company')).document).toMatchObject({ phone: SECTION_SEEDS.company.phone });
    const list = (await call(editor, 'GET', '')).json().sections;
    expect(list.find((s: { section: string }) => s.section === 'company')).toMatchObject({ changed: true, draftSavedBy: 'Ada Editor' });
  });

  it('refuses an invalid document with field messages and stores nothing', async () => {
    const before = await draftOf('company');
    const res = await call(editor, 'PUT', '/company/draft', { version: before.version, document: { ...company(), email: 'not-an-email', foundedYear: 'soon' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['document.email', 'document.foundedYear']));
    expect(await draftOf('company')).toEqual(before);
  });

  it("refuses a list section's broken rule (a repeated team member) at the item", async () => {
    const members = SECTION_SEEDS.team.members;
    const res = await call(editor, 'PUT', '/team/draft', { version: 1, document: { members: [...members, members[0]] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toEqual({ field: `document.members.${members.length}`, message: `Team member "${members[0].name}" appears twice` });
  });

  it('refuses a save from an older version with 409 naming who saved last and when; nothing is overwritten', async () => {
    const before = await draftOf('company');
    const res = await call(owner, 'PUT', '/company/draft', { version: 1, document: { ...company(), tagline: 'Overwritten?' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'CONFLICT' });
    expect(res.json().message).toMatch(/^Ada Editor saved this section at .+ \(version 2\); you were editing version 1\./);
    expect(await draftOf('company')).toEqual(before);
  });

  it('answers 400 for a section that does not exist', async () => {
    expect((await call(editor, 'GET', '/pricing')).statusCode).toBe(400);
  });
});

describe('publishing', () => {
  it('publishes the draft: published document, revision and audit event together', async () => {
    const draft = await draftOf('company');
    t.clock.advance(60_000);
    const res = await call(editor, 'POST', '/company/publish', { version: draft.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().revision).toMatchObject({ number: 2, publishedBy: 'Ada Editor', source: 'publish' });
    const published = await publishedOf('company');
    expect(published).toMatchObject({ revisionId: res.json().revision.id, document: { phone: '+234 800 000 0199' } });
    const [event] = await t.database.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'content.publish'), eq(auditEvents.entityId, 'company')));
    expect(event).toMatchObject({ actorId: editor.id, before: { phone: SECTION_SEEDS.company.phone }, after: { phone: '+234 800 000 0199' } });
    await vi.waitFor(() => expect(t.app.publishedContent.get('company').phone).toBe('+234 800 000 0199'), { timeout: 2000 });
  });

  it('refuses to publish a draft visitors already see, or one that moved on', async () => {
    const draft = await draftOf('company');
    expect((await call(editor, 'POST', '/company/publish', { version: draft.version })).json()).toMatchObject({ code: 'CONFLICT', message: /nothing to publish/ });
    expect((await call(editor, 'POST', '/company/publish', { version: draft.version - 1 })).statusCode).toBe(409);
    expect(await revisionCount('company')).toBe(2);
  });

  it('is one transaction: when the audit event cannot be written, nothing is published', async () => {
    const saved = await call(editor, 'PUT', '/footer/draft', { version: 1, document: { ...SECTION_SEEDS.footer, newsletterText: 'Twice a year.' } });
    expect(saved.statusCode).toBe(200);
    // A real failure inside the transaction: the database refuses this one audit row.
    await t.database.db.execute(sql.raw(`
      create function refuse_footer_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$;
      create trigger refuse_footer_audit before insert on audit_events for each row when (new.entity_id = 'footer') execute function refuse_footer_audit();`));
    try {
      const res = await call(editor, 'POST', '/footer/publish', { version: 2 });
      expect(res.statusCode).toBe(500);
      expect(await revisionCount('footer')).toBe(1);
      expect((await publishedOf('footer')).document).toEqual(SECTION_SEEDS.footer);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger refuse_footer_audit on audit_events; drop function refuse_footer_audit();'));
    }
    expect((await call(editor, 'POST', '/footer/publish', { version: 2 })).statusCode).toBe(200);
  });
});

describe('history and restore', () => {
  it('lists revisions newest first, and gives a revision with the one before it', async () => {
    const list = await call(editor, 'GET', '/company/revisions');
    expect(list.statusCode).toBe(200);
    const revisions = list.json().revisions;
    expect(revisions.map((r: { number: number; source: string }) => [r.number, r.source])).toEqual([[2, 'publish'], [1, 'seed']]);
    const one = await call(editor, 'GET', `/company/revisions/${revisions[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().revision.document.phone).toBe('+234 800 000 0199');
    expect(one.json().previous).toMatchObject({ number: 1, document: { phone: SECTION_SEEDS.company.phone } });
    const first = await call(editor, 'GET', `/company/revisions/${revisions[1].id}`);
    expect(first.json().previous).toBeNull();
    expect((await call(editor, 'GET', '/company/revisions/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('restores a revision as a new draft version; visitors still see the published one', async () => {
    const [, seed] = (await call(editor, 'GET', '/company/revisions')).json().revisions;
    const draft = await draftOf('company');
    expect((await call(editor, 'POST', `/company/revisions/${seed.id}/restore`, { version: draft.version - 1 })).statusCode).toBe(409);
    const res = await call(editor, 'POST', `/company/revisions/${seed.id}/restore`, { version: draft.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().draft).toMatchObject({ version: draft.version + 1, document: { phone: SECTION_SEEDS.company.phone } });
    expect((await publishedOf('company')).document).toMatchObject({ phone: '+234 800 000 0199' });
  });
});

describe('schedules', () => {
  it('refuses a time in the past, schedules, shows it, and withdraws it', async () => {
    const past = await call(editor, 'PUT', '/about/schedule', { version: 1, publishAt: new Date(t.clock.now().getTime() - 1000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toEqual([{ field: 'body.publishAt', message: 'Choose a time in the future' }]);
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    expect((await call(editor, 'PUT', '/about/schedule', { version: 2, publishAt: at })).statusCode).toBe(409);
    const res = await call(editor, 'PUT', '/about/schedule', { version: 1, publishAt: at });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(editor, 'GET', '/about')).json().schedule).toMatchObject({ publishAt: at, createdBy: 'Ada Editor' });
    expect((await call(editor, 'GET', '')).json().sections.find((s: { section: string }) => s.section === 'about').scheduledAt).toBe(at);
    expect((await call(editor, 'DELETE', '/about/schedule')).statusCode).toBe(200);
    expect((await call(editor, 'DELETE', '/about/schedule')).statusCode).toBe(404);
    expect((await call(editor, 'GET', '/about')).json().schedule).toBeNull();
  });
});

describe('who may edit', () => {
  it.each(['project_manager', 'support'] as const)('refuses %s every content route with 403', async (role) => {
    const who = await staff(t, role);
    const calls = [
      call(who, 'GET', ''),
      call(who, 'GET', '/company'),
      call(who, 'PUT', '/company/draft', { version: 1, document: company() }),
      call(who, 'POST', '/company/publish', { version: 1 }),
      call(who, 'GET', '/company/revisions'),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
  });

  it('lets an admin in', async () => {
    expect((await call(await staff(t, 'admin'), 'GET', '')).statusCode).toBe(200);
  });
});
