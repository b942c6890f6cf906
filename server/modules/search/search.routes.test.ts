import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports } from '../../db/schema/reports.ts';
import { messages } from '../../db/schema/messages.ts';
import { vendorApplications } from '../../db/schema/vendors.ts';
import { contactMessages } from '../../db/schema/contact.ts';
import type { SearchResponse } from '../../../common/schemas/search.ts';

const ORIGIN = 'http://localhost:3000';

let t: TestApp;
let adminAuth: { cookie: string };
let amakaAuth: { cookie: string };
let bayoAuth: { cookie: string };
let amaka: { id: string };
let bayo: { id: string };
let jettyId: string;
let wharfId: string;
let bayoProjectId: string;
let jettyReportId: string;
let bayoMessageId: string;

async function project(clientId: string, name: string, code: string) {
  const [row] = await t.database.db.insert(projects).values({ clientId, name, code, createdAt: t.clock.now() }).returning({ id: projects.id });
  return row.id;
}

async function report(projectId: string, name: string, progress: string) {
  const [row] = await t.database.db
    .insert(progressReports)
    .values({ projectId, date: '2026-11-20', project: name, team: 'Site team', tasks: 'Daily tasks', progress })
    .returning({ id: progressReports.id });
  return row.id;
}

async function message(projectId: string, senderId: string, subject: string, text: string) {
  const [row] = await t.database.db.insert(messages).values({ projectId, senderId, subject, text }).returning({ id: messages.id });
  return row.id;
}

function searchAs(auth: { cookie: string }, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { cookie: auth.cookie, origin: ORIGIN } });
}

async function found(auth: { cookie: string }, url: string): Promise<SearchResponse> {
  const res = await searchAs(auth, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const idsOf = (body: SearchResponse, kind: string) => body.groups.find((g) => g.kind === kind)?.hits.map((h) => h.id) ?? [];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t, { role: 'admin', name: 'Ngozi Staff' });
  amaka = await createUser(t, { role: 'client', name: 'Amaka Okafor', email: 'amaka@harbour.example', username: 'amaka-harbour' });
  bayo = await createUser(t, { role: 'client', name: 'Bayo Adeyemi', email: 'bayo@inland.example', username: 'bayo-inland' });
  adminAuth = await signIn(t, admin, 'admin');
  amakaAuth = await signIn(t, amaka, 'client');
  bayoAuth = await signIn(t, bayo, 'client');
  jettyId = await project(amaka.id, 'Jetty Rehabilitation', 'JTY-001');
  wharfId = await project(amaka.id, 'Wharf Extension', 'WHF-002');
  bayoProjectId = await project(bayo.id, 'Inland Depot Drainage', 'DEP-009');
  jettyReportId = await report(jettyId, 'Jetty Rehabilitation', 'The crew paved the access road and cured the slab.');
  await report(bayoProjectId, 'Inland Depot Drainage', 'Drainage culverts laid along the depot perimeter.');
  await message(jettyId, amaka.id, 'Subject: Piles', 'When will the sheet piles arrive at the jetty?');
  // Words only Bayo's thread holds: Amaka's search must never reach them.
  bayoMessageId = await message(bayoProjectId, bayo.id, 'Subject: Forklift', 'The forklift battery at the depot needs replacing.');
  await t.database.db.insert(vendorApplications).values({
    id: randomUUID(),
    reference: 'VR-20261120-ABC123',
    companyName: 'Lagoon Aggregates Ltd',
    companyPhone: '+234 800 000 0000',
    companyAddress: '1 Quarry Road',
    companyEmail: 'sales@lagoon.example',
    contactPersonName: 'Kemi Bello',
    businessType: 'Supplier',
    taxId: 'TIN-1',
    registrationNumber: 'RC-1',
    compliant: 'Yes',
    experience: 'Supplied granite chippings for road works since 2010.',
    bankDetails: 'Bank 0001',
  });
  await t.database.db.insert(contactMessages).values({ name: 'Tolu Ade', email: 'tolu@example.test', message: 'We need a quote for warehouse racking installation.' });
});

afterAll(async () => {
  await t?.close();
});

describe('staff search (GET /api/search)', () => {
  it('finds clients by name, e-mail and username, with a link that opens the client', async () => {
    for (const term of ['Okafor', 'harbour.example', 'amaka-harb']) {
      const body = await found(adminAuth, `/api/search?q=${encodeURIComponent(term)}`);
      expect(idsOf(body, 'clients'), term).toEqual([amaka.id]);
    }
    const body = await found(adminAuth, '/api/search?q=okafor');
    expect(body.groups[0]).toMatchObject({ kind: 'clients', label: 'Clients', more: false });
    expect(body.groups[0].hits[0].href).toBe(`/secured/v1/admin?client=${amaka.id}`);
  });

  it('finds projects by name and by code, linking to the project on the dashboard', async () => {
    expect(idsOf(await found(adminAuth, '/api/search?q=wharf'), 'projects')).toEqual([wharfId]);
    const byCode = await found(adminAuth, '/api/search?q=jty-001');
    expect(idsOf(byCode, 'projects')).toEqual([jettyId]);
    expect(byCode.groups.find((g) => g.kind === 'projects')!.hits[0].href).toBe(`/secured/v1/admin?client=${amaka.id}&project=${jettyId}`);
  });

  it('finds report text by its English stem: "paving" finds "paved"', async () => {
    const body = await found(adminAuth, '/api/search?q=paving');
    expect(idsOf(body, 'reports')).toEqual([jettyReportId]);
    const hit = body.groups.find((g) => g.kind === 'reports')!.hits[0];
    expect(hit.href).toBe(`/secured/v1/admin?client=${amaka.id}&project=${jettyId}#report-${jettyReportId}`);
    expect(hit.detail).toContain('paved');
  });

  it('finds messages of every client by their text, stemmed', async () => {
    const body = await found(adminAuth, '/api/search?q=replace battery');
    expect(idsOf(body, 'messages')).toEqual([bayoMessageId]);
    expect(body.groups.find((g) => g.kind === 'messages')!.hits[0].href).toBe(`/secured/v1/admin?client=${bayo.id}&project=${bayoProjectId}#message-${bayoMessageId}`);
  });

  it('finds vendor applications and contact messages', async () => {
    const vendor = await found(adminAuth, '/api/search?q=granite');
    expect(vendor.groups.map((g) => g.kind)).toEqual(['vendorApplications']);
    expect(vendor.groups[0].hits[0].href).toMatch(/^\/secured\/v1\/admin\/vendor-applications\/[0-9a-f-]{36}$/);
    expect(idsOf(await found(adminAuth, '/api/search?q=VR-20261120'), 'vendorApplications')).toHaveLength(1);
    const contact = await found(adminAuth, '/api/search?q=installing racks');
    expect(contact.groups.map((g) => g.kind)).toEqual(['contactMessages']);
    expect(contact.groups[0].hits[0].href).toMatch(/^\/secured\/v1\/admin\/contact-messages#message-/);
  });

  it("searches only the kinds the staff role may read: a project manager finds projects and clients, no submissions (decision 273)", async () => {
    const pat = await createUser(t, { role: 'admin', name: 'Pat Manager', staffRole: 'project_manager' });
    const manager = await signIn(t, pat, 'admin');
    expect((await found(manager, '/api/search?q=granite')).groups).toEqual([]);
    expect((await found(manager, '/api/search?q=installing racks')).groups).toEqual([]);
    // Only the clients of their own projects (decision 277): none before an assignment, Amaka after one.
    expect(idsOf(await found(manager, '/api/search?q=Okafor'), 'clients')).toEqual([]);
    await t.database.db.execute(sql`insert into project_assignments (project_id, user_id) values (${jettyId}, ${pat.id})`);
    expect(idsOf(await found(manager, '/api/search?q=Okafor'), 'clients')).toEqual([amaka.id]);
    const support = await signIn(t, await createUser(t, { role: 'admin', name: 'Sam Support', staffRole: 'support' }), 'admin');
    expect((await searchAs(support, '/api/search?q=granite')).statusCode).toBe(403);
  });

  it('groups the hits by kind in a fixed order, leaving out kinds with none', async () => {
    // 'jetty' is a project name, report text and message text at once.
    const body = await found(adminAuth, '/api/search?q=jetty');
    expect(body.groups.map((g) => g.kind)).toEqual(['projects', 'reports', 'messages']);
    expect(body.groups.map((g) => g.label)).toEqual(['Projects', 'Progress reports', 'Messages']);
    expect((await found(adminAuth, '/api/search?q=zeppelin')).groups).toEqual([]);
  });

  it('lists matching messages newest first, for a rare word and for one in over a thousand messages', async () => {
    // 1,200 messages say 'scaffold' (more than the text-index probe of 1,000), 3 say 'tarpaulin'.
    await t.database.db.execute(sql`
      insert into messages (project_id, sender_id, subject, text, created_at)
      select ${wharfId}, ${amaka.id}, 'Scaffold ' || i, 'Scaffold check number ' || i || case when i % 400 = 0 then ' tarpaulin' else '' end,
             timestamptz '2026-01-01' + (i || ' minutes')::interval
      from generate_series(1, 1200) as i`);
    for (const [term, newest, more] of [['scaffolding', 'Scaffold 1200', true], ['tarpaulin', 'Scaffold 1200', false], ['scaffold -tarpaulin', 'Scaffold 1199', true]] as const) {
      const group = (await found(adminAuth, `/api/search?q=${encodeURIComponent(term)}&limit=3`)).groups.find((g) => g.kind === 'messages')!;
      expect(group.hits[0].title, term).toBe(`${newest} · Wharf Extension`);
      expect(group.more, term).toBe(more);
    }
    const last = (await found(adminAuth, '/api/search?q=tarpaulin&limit=3')).groups.find((g) => g.kind === 'messages')!;
    expect(last.hits.map((h) => h.title)).toEqual(['Scaffold 1200 · Wharf Extension', 'Scaffold 800 · Wharf Extension', 'Scaffold 400 · Wharf Extension']);
  });

  it('shows at most limit hits per kind and says there are more', async () => {
    const body = await found(adminAuth, '/api/search?q=example&limit=1');
    const clients = body.groups.find((g) => g.kind === 'clients')!;
    expect(clients.hits).toHaveLength(1);
    expect(clients.more).toBe(true);
  });

  it('treats the term as text only: wildcards, quotes and query syntax match themselves or nothing', async () => {
    expect((await found(adminAuth, `/api/search?q=${encodeURIComponent('%%')}`)).groups).toEqual([]);
    expect((await found(adminAuth, `/api/search?q=${encodeURIComponent('__')}`)).groups).toEqual([]);
    for (const term of ["'); drop table users; --", '!(&|:*', '"unclosed', 'or -jetty']) {
      const res = await searchAs(adminAuth, `/api/search?q=${encodeURIComponent(term)}`);
      expect(res.statusCode, term).toBe(200);
    }
    expect(idsOf(await found(adminAuth, '/api/search?q=okafor'), 'clients')).toEqual([amaka.id]);
  });

  it('refuses a missing, too short, too long or unstorable term and a bad limit with 400', async () => {
    for (const url of ['/api/search', '/api/search?q=a', '/api/search?q=%20%20a%20', `/api/search?q=${'x'.repeat(101)}`, '/api/search?q=ab%00', '/api/search?q=jetty&limit=0', '/api/search?q=jetty&limit=21', '/api/search?q=jetty&limit=two']) {
      const res = await searchAs(adminAuth, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
  });

  it('is for staff only', async () => {
    expect((await searchAs(amakaAuth, '/api/search?q=jetty')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/search?q=jetty' })).statusCode).toBe(401);
  });
});

describe("a client's search (GET /api/search/mine)", () => {
  it('finds its own projects, reports (stemmed) and messages, linking to its dashboard', async () => {
    const body = await found(amakaAuth, '/api/search/mine?q=jetty');
    expect(body.groups.map((g) => g.kind)).toEqual(['projects', 'reports', 'messages']);
    expect(body.groups[0].hits[0].href).toBe(`/s/client/dashboard?project=${jettyId}`);
    expect(idsOf(await found(amakaAuth, '/api/search/mine?q=paving'), 'reports')).toEqual([jettyReportId]);
    expect(idsOf(await found(amakaAuth, '/api/search/mine?q=arriving piles'), 'messages')).toHaveLength(1);
  });

  it("never finds another client's projects, reports, messages, or any client", async () => {
    // Only Bayo's message holds 'forklift', only his report 'culverts', only his project 'Depot'.
    for (const term of ['forklift', 'culverts', 'depot', 'DEP-009', 'Bayo', 'inland.example']) {
      expect((await found(amakaAuth, `/api/search/mine?q=${encodeURIComponent(term)}`)).groups, term).toEqual([]);
    }
    // The same terms do find Bayo's own data, for him.
    expect(idsOf(await found(bayoAuth, '/api/search/mine?q=forklift'), 'messages')).toEqual([bayoMessageId]);
    // And the other way round: Amaka's report and her projects stay out of Bayo's search.
    for (const term of ['paving', 'jetty', 'piles', 'WHF-002']) {
      expect((await found(bayoAuth, `/api/search/mine?q=${encodeURIComponent(term)}`)).groups, term).toEqual([]);
    }
  });

  it('is for clients only, and validates like staff search', async () => {
    expect((await searchAs(adminAuth, '/api/search/mine?q=jetty')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/search/mine?q=jetty' })).statusCode).toBe(401);
    expect((await searchAs(amakaAuth, '/api/search/mine?q=j')).statusCode).toBe(400);
  });
});
