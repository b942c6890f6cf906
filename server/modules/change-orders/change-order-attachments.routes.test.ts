import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_ORDER_ATTACHMENT_MAX_BYTES, CHANGE_ORDER_ATTACHMENTS_MAX, type ChangeOrder } from '../../../common/schemas/change-orders.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';
import { actor, createProjectVia, multipart, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { storedFiles } from '../../../tests/helpers/uploads.ts';

// Change-order attachments (decision 296): checked and hashed uploads on drafts, exact size and
// count limits (also under concurrent uploads), frozen once sent, downloads only for those who see
// the change order, files gone with a deleted draft, and the certificate naming each file's SHA-256.

let t: TestApp;
let admin: Actor;
let client: Actor;
let otherClient: Actor;
let approver: Actor;

const DRAFT = { title: 'Extra piles at the quay head', description: 'Four more piles, 18 m each.', cost: '4,500,000.50', scheduleDays: 21 };
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const call = (who: Actor, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload }) });

async function draft(projectId: string): Promise<ChangeOrder> {
  const res = await call(admin, 'POST', `/api/change-orders/project/${projectId}`, DRAFT);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().changeOrder;
}

async function attach(changeOrderId: string, file: { name: string; data: Buffer; type?: string }, who: Actor = admin) {
  const body = await multipart({}, [{ field: 'file', name: file.name, type: file.type ?? 'application/pdf', data: file.data }]);
  return t.app.inject({ method: 'POST', url: `/api/change-orders/${changeOrderId}/attachments`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
}

const send = async (id: string) => expect((await call(admin, 'POST', `/api/change-orders/${id}/send`)).statusCode).toBe(200);
const attachmentRows = async (changeOrderId: string) =>
  (await t.database.pool.query<{ n: number }>('select count(*)::int as n from change_order_attachments where change_order_id = $1', [changeOrderId])).rows[0].n;
/** The stored files of change order attachments under one project. */
const filesOf = (projectId: string) => storedFiles(t.uploadsDir).filter((f) => f.startsWith(`change-orders/${projectId}/`) || f.startsWith(`change-orders\\${projectId}\\`));

/** A PDF-looking file of exactly `size` bytes. */
const pdfOfSize = (size: number) => {
  const head = Buffer.from('%PDF-1.7\n% a scanned sketch\n');
  return Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);
};

beforeAll(async () => {
  ({ t, admin } = await appWithAdmin());
  client = await actor(t, 'client', 'Harbour Logistics Ltd');
  otherClient = await actor(t, 'client', 'Other Works Ltd');
  const user = await createUser(t, { role: 'client', name: 'Ada Approver', organisationId: client.id, memberRole: 'approver' });
  approver = { id: user.id, name: user.name, headers: { cookie: (await signIn(t, user, 'client')).cookie, origin: SAME_ORIGIN } };
});
afterAll(() => t?.close());

describe('attaching to a draft', () => {
  it('stores a PDF with its size and SHA-256, lists it, and serves the same bytes as a download', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const pdf = samplePdf('Pile layout, revision B');
    const res = await attach(co._id, { name: 'pile-layout.pdf', data: pdf });
    expect(res.statusCode, res.body).toBe(201);
    const [file] = res.json().changeOrder.attachments;
    expect(file).toMatchObject({ fileName: 'pile-layout.pdf', mimeType: 'application/pdf', size: pdf.length, sha256: sha256(pdf) });
    const listed = (await call(admin, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders[0];
    expect(listed.attachments).toEqual([file]);
    const download = await call(admin, 'GET', file.url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(sha256(download.rawPayload)).toBe(file.sha256);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="pile-layout.pdf"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(filesOf(project._id)).toHaveLength(1);
  });

  it.each([
    ['an .exe renamed .pdf', 'payment-schedule.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 0x90)])],
    ['plain text', 'notes.pdf', Buffer.from('just some notes, not a PDF\n'.repeat(50))],
  ])('refuses %s by its bytes (415) and stores nothing', async (_what, name, data) => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const res = await attach(co._id, { name, data });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(await attachmentRows(co._id)).toBe(0);
    expect(filesOf(project._id)).toEqual([]);
  });

  it('takes a file of exactly 25 MB and refuses one byte more (413), storing nothing of it', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const atLimit = pdfOfSize(CHANGE_ORDER_ATTACHMENT_MAX_BYTES);
    const ok = await attach(co._id, { name: 'scan.pdf', data: atLimit });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().changeOrder.attachments[0]).toMatchObject({ size: CHANGE_ORDER_ATTACHMENT_MAX_BYTES, sha256: sha256(atLimit) });
    const over = await attach(co._id, { name: 'scan-2.pdf', data: pdfOfSize(CHANGE_ORDER_ATTACHMENT_MAX_BYTES + 1) });
    expect(over.statusCode).toBe(413);
    expect(await attachmentRows(co._id)).toBe(1);
    expect(filesOf(project._id)).toHaveLength(1);
  });

  it(`keeps exactly ${CHANGE_ORDER_ATTACHMENTS_MAX} files when uploads race for the last place: one wins, the others are 409 and leave no file`, async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    for (let i = 1; i < CHANGE_ORDER_ATTACHMENTS_MAX; i++) expect((await attach(co._id, { name: `sheet-${i}.pdf`, data: samplePdf(`Sheet ${i}`) })).statusCode).toBe(201);
    const racers = CHANGE_ORDER_ATTACHMENTS_MAX + 3;
    // All pass the unlocked early check and stream their bytes; the test app's pool (4 connections, one
    // held here) lets three meet at the locked row, the rest queue for a connection behind them.
    const results = await meetingAtLockedRow(t, 'change_orders', co._id, 3, () =>
      Promise.all(Array.from({ length: racers }, (_, i) => attach(co._id, { name: `late-${i}.pdf`, data: samplePdf(`Late ${i}`) }))),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(racers - 1);
    expect(await attachmentRows(co._id)).toBe(CHANGE_ORDER_ATTACHMENTS_MAX);
    expect(filesOf(project._id)).toHaveLength(CHANGE_ORDER_ATTACHMENTS_MAX);
    // Full: the next one is refused before a byte is stored.
    expect((await attach(co._id, { name: 'one-more.pdf', data: samplePdf() })).statusCode).toBe(409);
  });

  it('removes an attachment from a draft, file and all', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const [file] = (await attach(co._id, { name: 'a.pdf', data: samplePdf('A') })).json().changeOrder.attachments;
    await attach(co._id, { name: 'b.pdf', data: samplePdf('B') });
    const res = await call(admin, 'DELETE', `/api/change-orders/${co._id}/attachments/${file._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().changeOrder.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['b.pdf']);
    expect(filesOf(project._id)).toHaveLength(1);
    expect((await call(admin, 'GET', file.url)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/api/change-orders/${co._id}/attachments/${file._id}`)).statusCode).toBe(404);
  });
});

describe('once sent', () => {
  it('freezes the attachments: adding and removing are 409, and nothing changes', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const [file] = (await attach(co._id, { name: 'a.pdf', data: samplePdf('A') })).json().changeOrder.attachments;
    await send(co._id);
    expect((await attach(co._id, { name: 'late.pdf', data: samplePdf('late') })).statusCode).toBe(409);
    expect((await call(admin, 'DELETE', `/api/change-orders/${co._id}/attachments/${file._id}`)).statusCode).toBe(409);
    expect((await call(admin, 'DELETE', `/api/change-orders/${co._id}`)).statusCode).toBe(409);
    expect(await attachmentRows(co._id)).toBe(1);
    expect(filesOf(project._id)).toHaveLength(1);
  });

  it("lets the change order's client download them, and answers 404 for a draft's and to another client", async () => {
    const project = await createProjectVia(t, admin, client.id);
    const sentCo = await draft(project._id);
    const pdf = samplePdf('Sent sketch');
    const [sentFile] = (await attach(sentCo._id, { name: 'sketch.pdf', data: pdf })).json().changeOrder.attachments;
    await send(sentCo._id);
    const draftCo = await draft(project._id);
    const [draftFile] = (await attach(draftCo._id, { name: 'draft.pdf', data: samplePdf('Draft') })).json().changeOrder.attachments;

    for (const who of [client, approver]) {
      const res = await call(who, 'GET', sentFile.url);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(pdf)).toBe(true);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    }
    const seen = (await call(client, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders;
    expect(seen.map((c: ChangeOrder) => c._id)).toEqual([sentCo._id]);
    expect(seen[0].attachments).toEqual([sentFile]);

    expect((await call(client, 'GET', draftFile.url)).statusCode).toBe(404);
    expect((await call(otherClient, 'GET', sentFile.url)).statusCode).toBe(404);
    // The attachment of one change order is not reachable under another's id.
    expect((await call(client, 'GET', `/api/change-orders/${sentCo._id}/attachments/${draftFile._id}/file`)).statusCode).toBe(404);
    // Clients never write them.
    expect((await attach(sentCo._id, { name: 'x.pdf', data: samplePdf() }, client)).statusCode).toBe(403);
  });

  it("lists each file with its SHA-256 on the decided change order's certificate", async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    const files = [samplePdf('Sketch one'), samplePdf('Sketch two')];
    await attach(co._id, { name: 'sketch-one.pdf', data: files[0] });
    await attach(co._id, { name: 'sketch-two.pdf', data: files[1] });
    await send(co._id);
    expect((await call(approver, 'POST', `/api/change-orders/${co._id}/decision`, { decision: 'approve', comment: 'Agreed' })).statusCode).toBe(200);
    const cert = await call(client, 'GET', `/api/change-orders/${co._id}/certificate`);
    expect(cert.statusCode).toBe(200);
    const text = (await pdfText(cert.rawPayload)).replace(/\n/g, ' ');
    expect(text).toContain('Attachments (2)');
    expect(text).toContain('sketch-one.pdf');
    expect(text).toContain('sketch-two.pdf');
    for (const f of files) expect(text).toContain(sha256(f));
    // Still one page.
    expect((await pdfText(cert.rawPayload)).split('\n').length).toBeGreaterThan(5);
  });
});

describe('deleting a draft', () => {
  it('deletes the draft with its attachments and their files', async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    await attach(co._id, { name: 'a.pdf', data: samplePdf('A') });
    await attach(co._id, { name: 'b.pdf', data: samplePdf('B') });
    expect(filesOf(project._id)).toHaveLength(2);
    const res = await call(admin, 'DELETE', `/api/change-orders/${co._id}`);
    expect(res.statusCode).toBe(200);
    expect(await attachmentRows(co._id)).toBe(0);
    expect(filesOf(project._id)).toEqual([]);
    expect((await call(admin, 'GET', `/api/change-orders/project/${project._id}`)).json().changeOrders).toEqual([]);
  });

  it("removes change order files with a deleted project", async () => {
    const project = await createProjectVia(t, admin, client.id);
    const co = await draft(project._id);
    await attach(co._id, { name: 'a.pdf', data: samplePdf('A') });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/projects/${project._id}`, headers: admin.headers, payload: { confirmName: project.name } });
    expect(res.statusCode, res.body).toBe(200);
    expect(filesOf(project._id)).toEqual([]);
  });
});
