import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/helpers/free-port.ts';
import { multipartBody } from '../../tests/helpers/multipart.ts';
import { actor, createProjectVia, makeImage, multipart } from '../../tests/helpers/portal.ts';
import { samplePdf, samplePng } from '../../tests/helpers/sample-files.ts';
import { createTestApp, createTestDatabase, createUser, type TestApp } from '../../tests/helpers/test-app.ts';
import { createLocalStorage } from '../storage/local-storage.ts';
import { createS3Storage } from '../storage/s3-storage.ts';
import type { FileStorage } from '../storage/storage.ts';
import { createBackup, restoreBackup } from './backup.ts';

// Backup and restore (decision 165) against the real PostgreSQL: a data set with a row in every
// table and files of every kind, written to one backup file and restored into a fresh database and
// storage, then compared row by row (each row's text form, which is every column's own output) and
// file by file, byte for byte.

let t: TestApp;
let s3: S3rver;
let s3Dir: string;
let s3Endpoint: string;
const work = mkdtempSync(path.join(os.tmpdir(), 'portal-backup-test-'));
const BUCKET = 'portal-backup';
const s3Storage = (prefix: string) => createS3Storage({ endpoint: s3Endpoint, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', prefix });

beforeAll(async () => {
  t = await createTestApp();
  s3Dir = mkdtempSync(path.join(os.tmpdir(), 'portal-backup-s3-'));
  const port = await freePort();
  s3 = new S3rver({ address: '127.0.0.1', port, directory: s3Dir, silent: true, vhostBuckets: false, configureBuckets: [{ name: BUCKET, configs: [] }] });
  await s3.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
  await seed(t);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(s3Dir, { recursive: true, force: true });
});

const ORIGIN = 'http://localhost:3000';

/** A realistic data set: projects, reports with pictures, messages with files, then the rest by hand. */
async function seed(app: TestApp) {
  const admin = await actor(app, 'admin', 'Adaeze Staff');
  const client = await actor(app, 'client', 'Lagoon Works Ltd');
  const project = await createProjectVia(app, admin, client.id, { description: 'Quay wall — phase 2 “north”\tbay\nline two \\ backslash' });
  const report = await multipart(
    { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Piling; survey', progress: 'Half done' },
    [
      { field: 'images', name: 'site.png', type: 'image/png', data: await makeImage('png', { width: 120, height: 80 }) },
      { field: 'images', name: 'crane.jpg', type: 'image/jpeg', data: await makeImage('jpeg', { width: 90, height: 60 }) },
    ],
  );
  const r = await app.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...report.headers }, payload: report.payload });
  expect(r.statusCode, r.body).toBe(201);
  // A correction, so the report's earlier text is kept as a version (report_versions).
  const correction = await multipart({ progress: 'Half done — corrected' }, []);
  const corrected = await app.app.inject({ method: 'PATCH', url: `/api/reports/${r.json().report._id}`, headers: { ...admin.headers, ...correction.headers }, payload: correction.payload });
  expect(corrected.statusCode, corrected.body).toBe(200);
  const timeline = await app.app.inject({
    method: 'POST',
    url: '/api/gantt-charts',
    headers: admin.headers,
    payload: { projectId: project._id, projectTitle: 'Plan', tasks: [{ task: 'Mobilise', month: '2026-12' }] },
  });
  expect(timeline.statusCode, timeline.body).toBe(201);
  const ids: string[] = [];
  for (const file of [
    { filename: 'drawing.pdf', contentType: 'application/pdf', data: samplePdf('Quay wall drawing') },
    { filename: 'photo.png', contentType: 'image/png', data: await samplePng(40, 30) },
  ]) {
    const { payload, headers } = multipartBody({}, file);
    const up = await app.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...headers, cookie: client.headers.cookie, origin: ORIGIN }, payload });
    expect(up.statusCode, up.body).toBe(201);
    ids.push(up.json().file.publicId);
  }
  const sent = await app.app.inject({ method: 'POST', url: '/api/messages', headers: client.headers, payload: { text: 'Drawings attached', projectId: project._id, attachments: ids } });
  expect(sent.statusCode, sent.body).toBe(201);
  const reply = await app.app.inject({ method: 'POST', url: '/api/messages', headers: admin.headers, payload: { text: 'Thanks — noted.', projectId: project._id } });
  expect(reply.statusCode, reply.body).toBe(201);
  // An edit by its author, so the earlier text is kept as a version (message_versions).
  const edited = await app.app.inject({ method: 'PATCH', url: `/api/messages/${reply.json().message._id}`, headers: admin.headers, payload: { text: 'Thanks — noted, with care.' } });
  expect(edited.statusCode, edited.body).toBe(200);
  // The client reads the reply: a per-person read (message_reads, decision 281).
  const read = await app.app.inject({ method: 'PUT', url: `/api/messages/${reply.json().message._id}/read`, headers: client.headers });
  expect(read.statusCode, read.body).toBe(200);
  // The website's content (issue 24): a published change (a second revision) and a pending schedule.
  const content = (method: 'PUT' | 'POST', url: string, payload: object) =>
    app.app.inject({ method, url: `/api/site-content/sections/${url}`, headers: admin.headers, payload });
  const company = (await app.app.inject({ method: 'GET', url: '/api/site-content/sections/company', headers: admin.headers })).json().draft.document;
  expect((await content('PUT', 'company/draft', { version: 1, document: { ...company, tagline: 'Ọ̀nà — "safe" roads\tand jetties' } })).statusCode).toBe(200);
  expect((await content('POST', 'company/publish', { version: 2 })).statusCode).toBe(200);
  expect((await content('PUT', 'company/schedule', { version: 2, publishAt: '2030-01-01T08:00:00.123Z' })).statusCode).toBe(200);
  // A project manager runs the project (decision 277); a colleague of the client sees only it (decision 279).
  const manager = await createUser(app, { role: 'admin', name: 'Pat “PM” Manager', staffRole: 'project_manager' });
  const assigned = await app.app.inject({ method: 'PUT', url: `/api/projects/${project._id}/managers`, headers: admin.headers, payload: { managerIds: [manager.id] } });
  expect(assigned.statusCode, assigned.body).toBe(200);
  const colleague = { name: 'Bọ́lá Colleague', email: 'bola@example.test', memberRole: 'member', projectIds: [project._id] };
  const invited = await app.app.inject({ method: 'POST', url: '/api/organisation/members', headers: client.headers, payload: colleague });
  expect(invited.statusCode, invited.body).toBe(201);
  // A project document with two versions (decision 292): the current pointer and the superseded one.
  const doc = await multipart({ title: 'Quay wall — “GA”', category: 'drawing', label: 'Rev A', visibleToClient: 'true' }, [
    { field: 'file', name: 'ga.pdf', type: 'application/pdf', data: samplePdf('GA rev A') },
  ]);
  const createdDoc = await app.app.inject({ method: 'POST', url: `/api/projects/${project._id}/documents`, headers: { ...admin.headers, ...doc.headers }, payload: doc.payload });
  expect(createdDoc.statusCode, createdDoc.body).toBe(201);
  const revB = await multipart({ label: 'Rev B' }, [{ field: 'file', name: 'ga-b.pdf', type: 'application/pdf', data: samplePdf('GA rev B') }]);
  const versioned = await app.app.inject({
    method: 'POST',
    url: `/api/projects/${project._id}/documents/${createdDoc.json().document._id}/versions`,
    headers: { ...admin.headers, ...revB.headers },
    payload: revB.payload,
  });
  expect(versioned.statusCode, versioned.body).toBe(201);
  // A change order the client approved (decision 294): kobo amounts and the recorded move survive a restore.
  const changeOrder = await app.app.inject({
    method: 'POST',
    url: `/api/change-orders/project/${project._id}`,
    headers: admin.headers,
    payload: { title: 'Extra piles', description: 'Four “more” piles', cost: '4,500,000.50', scheduleDays: 21 },
  });
  expect(changeOrder.statusCode, changeOrder.body).toBe(201);
  const changeOrderId = changeOrder.json().changeOrder._id as string;
  // With a sketch attached to the draft (decision 296): its row and its file under change-orders/.
  const sketch = await multipart({}, [{ field: 'file', name: 'piles sketch.pdf', type: 'application/pdf', data: samplePdf('Piles sketch') }]);
  const attached = await app.app.inject({ method: 'POST', url: `/api/change-orders/${changeOrderId}/attachments`, headers: { ...admin.headers, ...sketch.headers }, payload: sketch.payload });
  expect(attached.statusCode, attached.body).toBe(201);
  expect((await app.app.inject({ method: 'POST', url: `/api/change-orders/${changeOrderId}/send`, headers: admin.headers })).statusCode).toBe(200);
  const decidedChange = await app.app.inject({ method: 'POST', url: `/api/change-orders/${changeOrderId}/decision`, headers: client.headers, payload: { decision: 'approve', comment: 'Agreed' } });
  expect(decidedChange.statusCode, decidedChange.body).toBe(200);
  // Rev B asked for approval and approved with a comment (decision 293).
  const asked = await app.app.inject({ method: 'POST', url: '/api/approvals', headers: admin.headers, payload: { subject: { type: 'document', documentVersionId: versioned.json().document.current._id }, dueOn: '2030-01-31', note: 'Check the “GA”\tplease' } });
  expect(asked.statusCode, asked.body).toBe(201);
  const decided = await app.app.inject({ method: 'POST', url: `/api/approvals/${asked.json().approval._id}/decision`, headers: client.headers, payload: { decision: 'approved', comment: 'Ọ̀kọ́ “fine”\nby us' } });
  expect(decided.statusCode, decided.body).toBe(200);
  await seedTheRest(app, admin.id, client.id, project._id);
}

/**
 * The tables the steps above leave empty, filled by hand with values that are hard to copy exactly:
 * quotes, tabs, new lines, backslashes, non-Latin text, microsecond times, NULLs, big numbers, JSON.
 */
async function seedTheRest(app: TestApp, adminId: string, clientId: string, projectId: string) {
  const c = new pg.Client({ connectionString: app.databaseUrl });
  await c.connect();
  const storage = createLocalStorage(app.uploadsDir);
  const vendorId = '6f1c2d3e-4b5a-4c6d-8e7f-101112131415';
  const imageId = '7a1c2d3e-4b5a-4c6d-8e7f-101112131416';
  const conversationId = '8b1c2d3e-4b5a-4c6d-8e7f-101112131417';
  const contactId = '9c1c2d3e-4b5a-4c6d-8e7f-101112131418';
  const pdf = samplePdf('Certificate of incorporation');
  const webp = await makeImage('webp', { width: 320, height: 180 });
  try {
    await c.query(`INSERT INTO auth_tokens (user_id, purpose, token_hash, created_at, expires_at, used_at) VALUES ($1, 'reset', 'h-1', '2026-11-20 08:00:00.123456+00', '2026-11-21 08:00:00+00', NULL)`, [clientId]);
    await c.query(`INSERT INTO blog_images (id, uploaded_by, original_name, width, height, variants) VALUES ($1, $2, 'bridge “dawn”.jpg', 320, 180, $3)`, [
      imageId,
      adminId,
      JSON.stringify([{ key: `blog/${imageId}/w320.webp`, width: 320, format: 'webp', bytes: webp.length }]),
    ]);
    await storage.put(`blog/${imageId}/w320.webp`, webp);
    // The media library: an item with its rendition and the place that uses it (issue 24).
    await c.query(
      `INSERT INTO media_items (id, original_name, mime, width, height, bytes, alt_text, focal_x, focal_y, variants, created_by) VALUES ($1, 'jetty “dawn”.jpg', 'image/jpeg', 320, 180, 9001, E'Jetty at dawn,\nlooking east', 0.25, 0.8, $2, $3)`,
      [imageId, JSON.stringify([{ key: `media/${imageId}/320.webp`, width: 320, height: 180, format: 'webp', size: webp.length }]), adminId],
    );
    await storage.put(`media/${imageId}/320.webp`, webp);
    await c.query(`INSERT INTO media_usages (media_id, used_in, label) VALUES ($1, 'team-member:1', 'Team: Ọlá Obi')`, [imageId]);
    await c.query(
      `INSERT INTO blog_posts (title, slug, excerpt, content, author, category, banner_image_id, status, publish_at, first_published_at, created_by, updated_by)
       VALUES ('Ọ̀nà tuntun: a new road', 'ona-tuntun', 'Tab	here, quote '' and "double"', '<p>Line one
line two \\ and \\N</p>', 'Staff', 'Roads', $1, 'published', '2026-11-01 10:00:00+00', '2026-11-01 10:00:00.000001+00', $2, $2)`,
      [imageId, adminId],
    );
    await c.query(`INSERT INTO contact_messages (id, name, email, phone, company, message, ip) VALUES ($1, 'Chidi O.', 'chidi@example.test', '+234 800 000 0000', '', E'Hello,\nplease call back.\r\nThanks', '203.0.113.9')`, [contactId]);
    await c.query(`INSERT INTO chat_conversations (id, visitor_hash, turns, started_at, last_at, handed_off_at, contact_message_id) VALUES ($1, 'vh-1', 1, now(), now(), now(), $2)`, [conversationId, contactId]);
    await c.query(`INSERT INTO chat_turns (conversation_id, question, answer, outcome, mode, created_at) VALUES ($1, 'Do you build jetties?', 'Yes — marine works are one of our services.', 'answered', 'offline', now())`, [conversationId]);
    await c.query(`INSERT INTO login_attempts (ip, portal, account, user_id, result, user_agent) VALUES ('2001:db8::1', 'client', 'lagoon', $1, 'bad-password', NULL)`, [clientId]);
    await c.query(`INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES ($1, 'rc-hash-1')`, [adminId]);
    await c.query(`INSERT INTO mfa_used_steps (user_id, step) VALUES ($1, 9007199254740993)`, [adminId]);
    await c.query(`INSERT INTO news_cache (key, articles, fetched_at, expires_at, next_attempt_at, last_error) VALUES ('construction', $1, now(), now() + interval '1 hour', now(), NULL)`, [
      JSON.stringify([{ title: 'Port expansion', url: 'https://news.example/a?x=1&y=2', nested: { n: 1.5, none: null } }]),
    ]);
    await c.query(`INSERT INTO newsletter_issues (subject, body, sent_by_id, sent_by_name, sent_at, recipient_count, idempotency_key) VALUES ('November', 'Body', $1, 'Adaeze Staff', now(), 1, gen_random_uuid())`, [adminId]);
    await c.query(`INSERT INTO newsletter_subscribers (email, status, unsubscribe_token, confirmed_at) VALUES ('reader@example.test', 'confirmed', 'unsub-1', now())`);
    await c.query(`INSERT INTO server_secrets (name, value) VALUES ('backup-test', 'c2VjcmV0')`);
    await c.query(`INSERT INTO setup_links (token_hash, created_at, expires_at, used_at) VALUES ('setup-hash-1', '2026-11-20 08:00:00.5+00', '2026-11-20 09:00:00+00', '2026-11-20 08:10:00+00')`);
    await c.query(
      `INSERT INTO vendor_applications (id, reference, company_name, company_phone, company_address, company_email, contact_person_name, business_type, tax_id, registration_number, compliant, bank_details, ip)
       VALUES ($1, 'VA-2026-0001', 'Delta Pipes & Fittings', '+234 1 000 0000', '12 Wharf Road', 'sales@delta.example', 'Ngozi', 'Supplier', 'TIN-1', 'RC 1', 'Yes', 'Bank X', '198.51.100.7')`,
      [vendorId],
    );
    const docKey = `vendors/${vendorId}/certificate`;
    await storage.put(docKey, pdf);
    await c.query(`INSERT INTO vendor_documents (id, application_id, kind, storage_key, original_name, mime_type, size) VALUES (gen_random_uuid(), $1, 'certificate', $2, 'cert.pdf', 'application/pdf', $3)`, [vendorId, docKey, pdf.length]);
    await c.query(`INSERT INTO approval_reminders (user_id, sent_on, request_ids) VALUES ($1, '2030-01-29', ARRAY(SELECT id FROM approval_requests))`, [clientId]);
    // The payment plan (decision 298): a milestone, an issued invoice with two lines (kobo past a
    // float's comfort, VAT by the rule), a credit note for one line, a payment, the counters, a checkout.
    const milestone = await c.query<{ id: string }>(
      `INSERT INTO payment_milestones (project_id, position, name, share_bp, due_date, depends_on, created_by) VALUES ($1, 1, 'Piling — “north” bay', 3000, '2026-12-31', $2, $3) RETURNING id`,
      [projectId, JSON.stringify([{ timelineId: '00000000-0000-4000-8000-000000000000', task: 'Mobilise' }]), adminId],
    );
    const invoice = await c.query<{ id: string }>(`INSERT INTO invoices (project_id, milestone_id, due_date, notes, created_by) VALUES ($1, $2, '2026-12-31', E'Pay within\t30 days', $3) RETURNING id`, [
      projectId,
      milestone.rows[0].id,
      adminId,
    ]);
    const invoiceId = invoice.rows[0].id;
    const lines = await c.query<{ id: string }>(
      `INSERT INTO invoice_lines (invoice_id, position, description, quantity, unit_price_kobo, vat_rate_bp, net_kobo, vat_kobo)
       VALUES ($1, 1, 'Milestone 1: piling', 1, 450000050, 750, 450000050, 33750004), ($1, 2, 'Survey pegs “x3”', 3, 10, 750, 30, 2) RETURNING id`,
      [invoiceId],
    );
    await c.query(
      `UPDATE invoices SET status = 'issued', number = 'INV-2026-0001', number_year = 2026, number_seq = 1, issue_date = '2026-11-20', issued_at = '2026-11-20 09:00:00.654321+00', issued_by = $2,
       net_kobo = 450000080, vat_kobo = 33750006, gross_kobo = 483750086, seller = $3, buyer = $4, bank = $5 WHERE id = $1`,
      [invoiceId, adminId, JSON.stringify({ name: 'Company Ltd', rc: 'RC 0000000' }), JSON.stringify({ name: 'Lagoon Works Ltd', address: 'Line 1\nLine 2' }), JSON.stringify({ bank: 'Bank X', account: '0123456789' })],
    );
    const note = await c.query<{ id: string }>(`INSERT INTO credit_notes (invoice_id, reason, created_by) VALUES ($1, 'Pegs not supplied', $2) RETURNING id`, [invoiceId, adminId]);
    await c.query(`INSERT INTO credit_note_lines (credit_note_id, invoice_line_id, position, description, net_kobo, vat_kobo) VALUES ($1, $2, 1, 'Survey pegs “x3”', 30, 2)`, [note.rows[0].id, lines.rows[1].id]);
    await c.query(
      `UPDATE credit_notes SET status = 'issued', number = 'CN-2026-0001', number_year = 2026, number_seq = 1, issue_date = '2026-11-21', issued_at = now(), issued_by = $2, net_kobo = 30, vat_kobo = 2, gross_kobo = 32 WHERE id = $1`,
      [note.rows[0].id, adminId],
    );
    const payment = await c.query<{ id: string }>(
      `INSERT INTO payments (invoice_id, amount_kobo, received_on, method, reference, paystack_reference, recorded_by) VALUES ($1, 100000000, '2026-11-25', 'paystack', 'PSK “ref”', 'pay-ref-1', $2) RETURNING id`,
      [invoiceId, adminId],
    );
    await c.query(`INSERT INTO finance_settings (id, invoice_prefix, tax_id, bank_name, bank_account_name, bank_account_number, updated_by) VALUES (1, 'KD', 'TIN-0000', 'Bank “X”', E'Company\tLtd', '0123456789', $1)`, [adminId]);
    await c.query(`INSERT INTO document_counters (series, year, last) VALUES ('invoice', 2026, 1), ('credit_note', 2026, 1)`);
    await c.query(
      `INSERT INTO paystack_transactions (reference, invoice_id, amount_kobo, status, paid_amount_kobo, paystack_id, payment_id, last_event, last_payload, initialized_by, verified_at)
       VALUES ('pay-ref-1', $1, 100000000, 'paid', 100000000, '4099260516', $2, 'charge.success', $3, $4, now())`,
      [invoiceId, payment.rows[0].id, JSON.stringify({ event: 'charge.success', data: { amount: 100000000, currency: 'NGN' } }), clientId],
    );
    await c.query(`INSERT INTO invoice_reminders (invoice_id, kind, sent_on) VALUES ($1, 'due_soon', '2026-11-24')`, [invoiceId]);
    await c.query(`INSERT INTO vendor_status_changes (application_id, from_status, to_status, note, changed_by, changed_by_name) VALUES ($1, 'new', 'reviewing', '', $2, 'Adaeze Staff')`, [vendorId, adminId]);
  } finally {
    await c.end();
  }
}

async function tableNames(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ n: string }>(`SELECT relname AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1`)).rows.map((r) => r.n);
  } finally {
    await c.end();
  }
}

/** Every row of every table in its text form, sorted, per table. */
async function allRows(url: string): Promise<Record<string, string[]>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const out: Record<string, string[]> = {};
    for (const name of await tableNames(url)) {
      out[name] = (await c.query<{ r: string }>(`SELECT t::text AS r FROM "${name}" t ORDER BY 1`)).rows.map((row) => row.r);
    }
    return out;
  } finally {
    await c.end();
  }
}

async function allFiles(storage: FileStorage): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const key of storage.list!()) out.set(key, await buffer(await storage.get(key)));
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

describe('backup and restore', () => {
  it('seeds a row in every table and files of every kind', async () => {
    const rows = await allRows(t.databaseUrl);
    const empty = Object.entries(rows).filter(([, list]) => list.length === 0).map(([name]) => name);
    expect(empty).toEqual([]);
    const keys = [...(await allFiles(createLocalStorage(t.uploadsDir))).keys()];
    // Report originals and thumbnails, message attachments, blog and media renditions, vendor documents, project documents, change order attachments.
    for (const area of ['reports/', 'messages/', 'blog/', 'media/', 'vendors/', 'documents/', 'change-orders/']) expect(keys.some((k) => k.startsWith(area)), area).toBe(true);
  });

  it('restores into a fresh database and storage every row and every file byte for byte', async () => {
    const file = path.join(work, 'local.portal-backup');
    const summary = await createBackup({ databaseUrl: t.databaseUrl, storage: createLocalStorage(t.uploadsDir), file });
    const before = await allRows(t.databaseUrl);
    expect(summary.tables).toBe(Object.keys(before).length);
    expect(summary.rows).toBe(Object.values(before).reduce((n, list) => n + list.length, 0));

    const fresh = await createTestDatabase();
    const freshUploads = mkdtempSync(path.join(work, 'uploads-'));
    try {
      const restored = await restoreBackup({ databaseUrl: fresh.url, storage: createLocalStorage(freshUploads), file });
      expect(restored).toMatchObject({ tables: summary.tables, rows: summary.rows, files: summary.files, fileBytes: summary.fileBytes, schema: summary.schema });
      expect(await allRows(fresh.url)).toEqual(before);
      const want = await allFiles(createLocalStorage(t.uploadsDir));
      const got = await allFiles(createLocalStorage(freshUploads));
      expect([...got.keys()]).toEqual([...want.keys()]);
      for (const [key, bytes] of want) expect(got.get(key)!.equals(bytes), key).toBe(true);
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a database or a storage that holds data, changing nothing, and replaces them with --force', async () => {
    const file = path.join(work, 'refusal.portal-backup');
    await createBackup({ databaseUrl: t.databaseUrl, storage: createLocalStorage(t.uploadsDir), file });
    const target = await createTestDatabase();
    const targetUploads = mkdtempSync(path.join(work, 'uploads-'));
    try {
      // Rows in the database.
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      await c.query(`INSERT INTO server_secrets (name, value) VALUES ('keep-me', 'x')`);
      await expect(restoreBackup({ databaseUrl: target.url, storage: createLocalStorage(targetUploads), file })).rejects.toThrow(
        /Refusing to restore: the target is not empty \(the database has rows in table "server_secrets"\).*--force/,
      );
      expect((await c.query(`SELECT name FROM server_secrets`)).rows).toEqual([{ name: 'keep-me' }]);
      await c.query(`DELETE FROM server_secrets`);
      await c.end();
      // A file in the storage.
      await createLocalStorage(targetUploads).put('messages/zz/left-over', Buffer.from('older file'));
      await expect(restoreBackup({ databaseUrl: target.url, storage: createLocalStorage(targetUploads), file })).rejects.toThrow(/the file storage holds "messages\/zz\/left-over"/);
      expect(await tableCount(target.url, 'users')).toBe(0);
      // Told to: what was there goes, the backup comes in whole.
      await restoreBackup({ databaseUrl: target.url, storage: createLocalStorage(targetUploads), file, force: true });
      expect(await allRows(target.url)).toEqual(await allRows(t.databaseUrl));
      expect([...(await allFiles(createLocalStorage(targetUploads))).keys()]).toEqual([...(await allFiles(createLocalStorage(t.uploadsDir))).keys()]);
    } finally {
      await target.drop();
    }
  });

  it('refuses a damaged file and leaves the target empty', async () => {
    const file = path.join(work, 'whole.portal-backup');
    await createBackup({ databaseUrl: t.databaseUrl, storage: createLocalStorage(t.uploadsDir), file });
    const whole = readFileSync(file);
    const cut = path.join(work, 'cut.portal-backup');
    writeFileSync(cut, gzipSync(gunzipSync(whole).subarray(0, Math.floor(gunzipSync(whole).length * 0.6))));
    const target = await createTestDatabase();
    try {
      await expect(restoreBackup({ databaseUrl: target.url, storage: createLocalStorage(mkdtempSync(path.join(work, 'uploads-'))), file: cut })).rejects.toThrow(/truncated/);
      expect(await tableCount(target.url, 'users')).toBe(0);
    } finally {
      await target.drop();
    }
  });

  it('backs up an S3 bucket and restores it into another place of S3-compatible storage', async () => {
    const source = s3Storage('live');
    for (const [key, bytes] of await allFiles(createLocalStorage(t.uploadsDir))) await source.put(key, bytes);
    const file = path.join(work, 's3.portal-backup');
    const summary = await createBackup({ databaseUrl: t.databaseUrl, storage: source, file });
    expect(summary.files).toBeGreaterThan(4);
    const fresh = await createTestDatabase();
    try {
      await restoreBackup({ databaseUrl: fresh.url, storage: s3Storage('restored'), file });
      expect(await allRows(fresh.url)).toEqual(await allRows(t.databaseUrl));
      const want = await allFiles(source);
      const got = await allFiles(s3Storage('restored'));
      expect([...got.keys()]).toEqual([...want.keys()]);
      for (const [key, bytes] of want) expect(got.get(key)!.equals(bytes), key).toBe(true);
    } finally {
      await fresh.drop();
    }
  });
});

async function tableCount(url: string, table: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
  } finally {
    await c.end();
  }
}
