import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { projectMemberLimits } from '../../db/schema/projects.ts';
import { appWithTwoClients } from '../../../tests/helpers/actors.ts';
import { sampleFiles, zip } from '../../../tests/helpers/forms.ts';
import { createProjectVia, makeImage, multipart, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { storedFiles } from '../../../tests/helpers/uploads.ts';
import { findDocumentVersion, type DocumentVersionFacts } from './documents.service.ts';

let t: TestApp;
let admin: Actor;
let clientA: Actor;
let clientB: Actor;
let projectA: { _id: string; code: string; name: string };
let projectB: { _id: string; code: string; name: string };

beforeAll(async () => {
  ({ t, admin, clientA, clientB } = await appWithTwoClients(['Adaeze Okafor', 'Bello Works']));
  projectA = await createProjectVia(t, admin, clientA.id, { name: 'Onne jetty' });
  projectB = await createProjectVia(t, admin, clientB.id, { name: 'Kano depot' });
});
afterAll(() => t?.close());

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const base = (projectId = projectA._id) => `/api/projects/${projectId}/documents`;

interface Upload {
  fields?: Record<string, string>;
  file?: { name: string; type?: string; data: Buffer };
  projectId?: string;
  headers?: Actor['headers'];
}

async function createDocument({ fields = {}, file, projectId = projectA._id, headers = admin.headers }: Upload) {
  const body = await multipart(
    { title: 'General arrangement', category: 'drawing', label: 'Rev A', visibleToClient: 'true', ...fields },
    file ? [{ field: 'file', name: file.name, type: file.type ?? 'application/octet-stream', data: file.data }] : [],
  );
  return t.app.inject({ method: 'POST', url: base(projectId), headers: { ...headers, ...body.headers }, payload: body.payload });
}

async function newVersion(documentId: string, file: { name: string; data: Buffer }, label?: string, headers = admin.headers) {
  const body = await multipart(label ? { label } : {}, [{ field: 'file', name: file.name, type: 'application/pdf', data: file.data }]);
  return t.app.inject({ method: 'POST', url: `${base()}/${documentId}/versions`, headers: { ...headers, ...body.headers }, payload: body.payload });
}

const list = (who: Actor, projectId = projectA._id) => t.app.inject({ method: 'GET', url: base(projectId), headers: who.headers });
const get = (who: Actor, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });

async function expectNothingStoredSince(files: string[], rows: number) {
  expect(storedFiles(t.uploadsDir)).toEqual(files);
  expect(await t.database.db.$count(documentVersions)).toBe(rows);
}

describe('the register', () => {
  it('adds a document with its first version: label, uploader, size and the SHA-256 of its bytes', async () => {
    const pdf = samplePdf('Rev A general arrangement');
    const res = await createDocument({ file: { name: 'ga.pdf', type: 'application/pdf', data: pdf } });
    expect(res.statusCode).toBe(201);
    const doc = res.json().document;
    expect(doc).toMatchObject({ title: 'General arrangement', category: 'drawing', visibleToClient: true, superseded: [] });
    expect(doc.current).toMatchObject({ number: 1, label: 'Rev A', fileName: 'ga.pdf', mimeType: 'application/pdf', size: pdf.length, sha256: sha256(pdf), superseded: false, previewable: true });
    expect(doc.current.uploadedBy).toBe(admin.name);
    const file = await get(clientA, doc.current.url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('numbers versions itself when no label is given', async () => {
    const res = await createDocument({ fields: { label: '', title: 'Scope letter', category: 'contract' }, file: { name: 'scope', data: samplePdf() } });
    expect(res.statusCode).toBe(201);
    // The name gets the kind's own ending.
    expect(res.json().document.current).toMatchObject({ label: 'Version 1', fileName: 'scope.pdf' });
    const next = await newVersion(res.json().document._id, { name: 'scope-2.pdf', data: samplePdf('two') });
    expect(next.json().document.current.label).toBe('Version 2');
  });

  it('supersedes the previous version on a new upload, which stays downloadable and marked', async () => {
    const a = samplePdf('Rev A');
    const b = samplePdf('Rev B');
    const created = (await createDocument({ fields: { title: 'Drainage plan' }, file: { name: 'drainage.pdf', data: a } })).json().document;
    const res = await newVersion(created._id, { name: 'drainage-b.pdf', data: b }, 'Rev B');
    expect(res.statusCode).toBe(201);
    const doc = res.json().document;
    expect(doc.current).toMatchObject({ number: 2, label: 'Rev B', sha256: sha256(b), superseded: false });
    expect(doc.superseded).toEqual([expect.objectContaining({ number: 1, label: 'Rev A', sha256: sha256(a), superseded: true })]);
    // The client's register shows the current version first, the superseded one under it.
    const seen = (await list(clientA)).json().documents.find((d: { _id: string }) => d._id === created._id);
    expect(seen.current.label).toBe('Rev B');
    expect(seen.superseded.map((v: { label: string }) => v.label)).toEqual(['Rev A']);
    const old = await get(clientA, doc.superseded[0].url);
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(a)).toBe(true);
  });

  it('numbers two versions uploaded at once one after the other; the current one is the newest', async () => {
    const created = (await createDocument({ fields: { title: 'Piling layout' }, file: { name: 'piles.pdf', data: samplePdf('1') } })).json().document;
    const [one, two] = await Promise.all([
      newVersion(created._id, { name: 'p2.pdf', data: samplePdf('2') }),
      newVersion(created._id, { name: 'p3.pdf', data: samplePdf('3') }),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    const numbers = [one.json().document.current.number, two.json().document.current.number].sort();
    expect(numbers).toEqual([2, 3]);
    const versions = await t.database.db.select().from(documentVersions).where(eq(documentVersions.documentId, created._id));
    expect(versions.map((v) => v.number).sort()).toEqual([1, 2, 3]);
    const register = (await list(admin)).json().documents.find((d: { _id: string }) => d._id === created._id);
    expect(register.current.number).toBe(3);
    expect(register.superseded.map((v: { number: number }) => v.number)).toEqual([2, 1]);
  });

  it('lets staff rename, recategorise and hide a document', async () => {
    const created = (await createDocument({ fields: { title: 'Permit' }, file: { name: 'permit.pdf', data: samplePdf() } })).json().document;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${base()}/${created._id}`,
      headers: admin.headers,
      payload: { title: 'Building permit', category: 'permit', visibleToClient: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().document).toMatchObject({ title: 'Building permit', category: 'permit', visibleToClient: false });
    const empty = await t.app.inject({ method: 'PATCH', url: `${base()}/${created._id}`, headers: admin.headers, payload: {} });
    expect(empty.statusCode).toBe(400);
  });
});

describe('who sees what', () => {
  let hidden: { _id: string; current: { url: string } };
  let visible: { _id: string; current: { url: string } };

  beforeAll(async () => {
    hidden = (await createDocument({ fields: { title: 'Internal costing', category: 'other', visibleToClient: 'false' }, file: { name: 'cost.pdf', data: samplePdf() } })).json().document;
    visible = (await createDocument({ fields: { title: 'Shared method statement', category: 'method-statement' }, file: { name: 'ms.pdf', data: samplePdf() } })).json().document;
  });

  it('shows staff every document and the client only the visible ones', async () => {
    const staffIds = (await list(admin)).json().documents.map((d: { _id: string }) => d._id);
    expect(staffIds).toEqual(expect.arrayContaining([hidden._id, visible._id]));
    const clientIds = (await list(clientA)).json().documents.map((d: { _id: string }) => d._id);
    expect(clientIds).toContain(visible._id);
    expect(clientIds).not.toContain(hidden._id);
  });

  it('answers 404 to the client for a hidden document, as for a missing one', async () => {
    expect((await get(clientA, hidden.current.url)).statusCode).toBe(404);
    const missing = hidden.current.url.replace(hidden._id, '00000000-0000-4000-8000-000000000000');
    expect((await get(clientA, missing)).json()).toEqual((await get(clientA, hidden.current.url)).json());
    expect((await get(admin, hidden.current.url)).statusCode).toBe(200);
  });

  it("hides another client's project and documents behind 404", async () => {
    expect((await list(clientB)).statusCode).toBe(404);
    expect((await get(clientB, visible.current.url)).statusCode).toBe(404);
    // The ids of one project under another's path are 404 too.
    expect((await get(clientA, visible.current.url.replace(projectA._id, projectB._id))).statusCode).toBe(404);
  });

  it('keeps a member limited to other projects out (404)', async () => {
    const other = await createProjectVia(t, admin, clientA.id, { name: 'Second site' });
    const member = await createUser(t, { role: 'client', name: 'Limited Member', organisationId: clientA.id, memberRole: 'member' });
    await t.database.db.insert(projectMemberLimits).values({ userId: member.id, projectId: other._id });
    const headers = { cookie: (await signIn(t, member, 'client')).cookie, origin: SAME_ORIGIN };
    const limited = { id: member.id, name: member.name, headers };
    expect((await list(limited)).statusCode).toBe(404);
    expect((await get(limited, visible.current.url)).statusCode).toBe(404);
    expect((await list(limited, other._id)).statusCode).toBe(200);
  });

  it('refuses every write to a client (403) and stores nothing', async () => {
    const files = storedFiles(t.uploadsDir);
    const rows = await t.database.db.$count(documentVersions);
    expect((await createDocument({ headers: clientA.headers, file: { name: 'x.pdf', data: samplePdf() } })).statusCode).toBe(403);
    expect((await newVersion(visible._id, { name: 'x.pdf', data: samplePdf() }, undefined, clientA.headers)).statusCode).toBe(403);
    const patch = await t.app.inject({ method: 'PATCH', url: `${base()}/${visible._id}`, headers: clientA.headers, payload: { visibleToClient: false } });
    expect(patch.statusCode).toBe(403);
    await expectNothingStoredSince(files, rows);
  });

  it('shows a hidden document to the client once staff make it visible, and mails the client', async () => {
    const before = await t.database.db.$count(mailOutbox);
    const res = await t.app.inject({ method: 'PATCH', url: `${base()}/${hidden._id}`, headers: admin.headers, payload: { visibleToClient: true } });
    expect(res.statusCode).toBe(200);
    expect((await get(clientA, hidden.current.url)).statusCode).toBe(200);
    // One mail per project per quiet period: earlier uploads in this file may have claimed it.
    expect(await t.database.db.$count(mailOutbox)).toBeGreaterThanOrEqual(before);
  });
});

describe('mails to the client', () => {
  it('mails the client about a visible document, never about a hidden one', async () => {
    const project = await createProjectVia(t, admin, clientA.id, { name: 'Port Harcourt annex' });
    const mails = () => t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'document-notification'));
    const before = (await mails()).length;
    await createDocument({ projectId: project._id, fields: { visibleToClient: 'false' }, file: { name: 'h.pdf', data: samplePdf() } });
    expect((await mails()).length).toBe(before);
    await createDocument({ projectId: project._id, fields: { title: 'Contract sum analysis' }, file: { name: 'c.pdf', data: samplePdf() } });
    const after = await mails();
    expect(after.length).toBe(before + 1);
    const mail = after.at(-1)!;
    expect(mail.subject).toBe('New document for Port Harcourt annex');
    expect(mail.text).toContain('Contract sum analysis');
    expect(mail.text).not.toContain('%PDF');
  });

  it('mails the client when staff show a hidden document, as a new one', async () => {
    const project = await createProjectVia(t, admin, clientA.id, { name: 'Bonny terminal' });
    const mails = () => t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'document-notification'));
    const before = (await mails()).length;
    const hidden = (await createDocument({ projectId: project._id, fields: { title: 'Soil report', visibleToClient: 'false' }, file: { name: 's.pdf', data: samplePdf() } })).json().document;
    expect((await mails()).length).toBe(before);
    const shown = await t.app.inject({ method: 'PATCH', url: `${base(project._id)}/${hidden._id}`, headers: admin.headers, payload: { visibleToClient: true } });
    expect(shown.statusCode).toBe(200);
    const after = await mails();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)!.subject).toBe('New document for Bonny terminal');
    expect(after.at(-1)!.text).toContain('Soil report');
  });
});

/** An Office file's [Content_Types].xml naming its main part. */
const contentTypes = (part: string, type: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="${part}" ContentType="${type}"/></Types>`;

describe('checked by their bytes', () => {
  const accepted: Array<[string, () => Promise<Buffer> | Buffer, string, boolean]> = [
    ['photo.jpg', () => makeImage('jpeg'), 'image/jpeg', true],
    ['photo.png', () => makeImage('png'), 'image/png', true],
    ['photo.webp', () => makeImage('webp'), 'image/webp', true],
    ['spec.docx', () => sampleFiles.docx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', false],
    [
      'boq.xlsx',
      () =>
        zip([
          ['[Content_Types].xml', contentTypes('/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml')],
          ['xl/workbook.xml', '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'],
        ]),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      false,
    ],
    [
      'briefing.pptx',
      () =>
        zip([
          ['[Content_Types].xml', contentTypes('/ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml')],
          ['ppt/presentation.xml', '<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>'],
        ]),
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      false,
    ],
    ['plan.dwg', () => Buffer.concat([Buffer.from('AC1032'), Buffer.alloc(2048, 1)]), 'image/vnd.dwg', false],
    ['plan.dxf', () => Buffer.from('999\nmade by hand\n  0\nSECTION\n  2\nHEADER\n  0\nENDSEC\n  0\nEOF\n'), 'image/vnd.dxf', false],
    ['drawings.zip', () => zip([['sheet-01.txt', 'not really a drawing'], ['sheet-02.txt', 'nor this']]), 'application/zip', false],
  ];

  for (const [name, make, mime, inline] of accepted) {
    it(`keeps ${name} as ${mime} and serves it ${inline ? 'inline unless asked to download' : 'always as a download'}`, async () => {
      const data = await make();
      const res = await createDocument({ fields: { title: `Sample ${name}`, category: 'other' }, file: { name, data } });
      expect(res.statusCode).toBe(201);
      const current = res.json().document.current;
      expect(current).toMatchObject({ mimeType: mime, sha256: sha256(data), previewable: inline });
      const shown = await get(clientA, current.url);
      expect(shown.headers['content-type']).toBe(mime);
      expect(shown.headers['x-content-type-options']).toBe('nosniff');
      expect(shown.headers['content-disposition']).toMatch(inline ? /^inline;/ : /^attachment;/);
      if (inline) expect(shown.headers['content-security-policy']).toContain('sandbox');
      const saved = await get(clientA, `${current.url}?download=1`);
      expect(saved.headers['content-disposition']).toMatch(/^attachment;/);
      expect(saved.rawPayload.equals(data)).toBe(true);
    });
  }

  it('shows a PDF inline under a policy that loads and runs nothing beside the viewer', async () => {
    const res = await createDocument({ fields: { title: 'Inline PDF' }, file: { name: 'inline.pdf', data: samplePdf() } });
    const shown = await get(clientA, res.json().document.current.url);
    expect(shown.headers['content-disposition']).toMatch(/^inline; filename="inline.pdf"/);
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(shown.headers['content-security-policy']).not.toContain('script-src');
  });

  const refused: Array<[string, Buffer, number]> = [
    ['page.pdf', Buffer.from('<html><script>alert(1)</script></html>'), 415],
    ['notes.txt', Buffer.from('just some words\n'), 415],
    ['old.doc', sampleFiles.doc(), 415],
    ['program.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 0x90)]), 415],
    ['empty.pdf', Buffer.alloc(0), 400],
  ];
  for (const [name, data, status] of refused) {
    it(`refuses ${name} (${status}) and stores nothing`, async () => {
      const files = storedFiles(t.uploadsDir);
      const rows = await t.database.db.$count(documentVersions);
      const docs = await t.database.db.$count(projectDocuments);
      const res = await createDocument({ fields: { title: `Bad ${name}` }, file: { name, type: 'application/pdf', data } });
      expect(res.statusCode).toBe(status);
      expect(res.json().success).toBe(false);
      await expectNothingStoredSince(files, rows);
      expect(await t.database.db.$count(projectDocuments)).toBe(docs);
    });
  }

  it('refuses a bad version without touching the current one', async () => {
    const created = (await createDocument({ fields: { title: 'Kept' }, file: { name: 'kept.pdf', data: samplePdf() } })).json().document;
    const files = storedFiles(t.uploadsDir);
    const rows = await t.database.db.$count(documentVersions);
    const res = await newVersion(created._id, { name: 'evil.pdf', data: Buffer.from('<svg onload="x()"/>') });
    expect(res.statusCode).toBe(415);
    await expectNothingStoredSince(files, rows);
    const register = (await list(admin)).json().documents.find((d: { _id: string }) => d._id === created._id);
    expect(register.current._id).toBe(created.current._id);
  });

  it('refuses invalid fields before storing the file (400), and a body that is not multipart (415)', async () => {
    const files = storedFiles(t.uploadsDir);
    const rows = await t.database.db.$count(documentVersions);
    const noTitle = await createDocument({ fields: { title: '  ' }, file: { name: 'a.pdf', data: samplePdf() } });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().details[0].field).toBe('title');
    const badCategory = await createDocument({ fields: { category: 'poem' }, file: { name: 'a.pdf', data: samplePdf() } });
    expect(badCategory.statusCode).toBe(400);
    const noFile = await createDocument({});
    expect(noFile.statusCode).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: base(), headers: admin.headers, payload: { title: 'x' } });
    expect(json.statusCode).toBe(415);
    await expectNothingStoredSince(files, rows);
  });

  it('refuses uploads to an archived project (409) and stores nothing', async () => {
    const project = await createProjectVia(t, admin, clientA.id, { name: 'Archived site' });
    const archive = await t.app.inject({ method: 'POST', url: `/api/projects/${project._id}/archive`, headers: admin.headers });
    expect(archive.statusCode).toBe(200);
    const files = storedFiles(t.uploadsDir);
    const rows = await t.database.db.$count(documentVersions);
    const res = await createDocument({ projectId: project._id, file: { name: 'a.pdf', data: samplePdf() } });
    expect(res.statusCode).toBe(409);
    await expectNothingStoredSince(files, rows);
  });
});

describe('a version for other domains (approvals)', () => {
  it('answers a version with its project, number, label and SHA-256, current or superseded', async () => {
    const a = samplePdf('for approval A');
    const created = (await createDocument({ fields: { title: 'Approval drawing', label: 'Rev A' }, file: { name: 'ad.pdf', data: a } })).json().document;
    const b = (await newVersion(created._id, { name: 'ad-b.pdf', data: samplePdf('for approval B') }, 'Rev B')).json().document;
    const facts = await t.database.db.transaction((tx) => findDocumentVersion(tx, created.current._id, { lock: true }));
    expect(facts).toMatchObject<Partial<DocumentVersionFacts>>({
      versionId: created.current._id,
      documentId: created._id,
      projectId: projectA._id,
      title: 'Approval drawing',
      number: 1,
      label: 'Rev A',
      sha256: sha256(a),
      size: a.length,
      current: false,
      visibleToClient: true,
    });
    expect((await findDocumentVersion(t.database.db, b.current._id))?.current).toBe(true);
    expect(await findDocumentVersion(t.database.db, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});

describe('deleting a project', () => {
  it('takes its documents and their files with it, once its name is typed', async () => {
    const project = await createProjectVia(t, admin, clientA.id, { name: 'Short-lived site' });
    const created = (await createDocument({ projectId: project._id, file: { name: 'a.pdf', data: samplePdf() } })).json().document;
    const b = await multipart({}, [{ field: 'file', name: 'b.pdf', type: 'application/pdf', data: samplePdf('b') }]);
    const withB = await t.app.inject({ method: 'POST', url: `${base(project._id)}/${created._id}/versions`, headers: { ...admin.headers, ...b.headers }, payload: b.payload });
    expect(withB.statusCode).toBe(201);
    const keys = (await t.database.db.select().from(documentVersions).where(eq(documentVersions.documentId, created._id))).map((v) => v.storageKey);
    expect(keys).toHaveLength(2);
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/projects/${project._id}`, headers: admin.headers });
    expect(refused.statusCode).toBe(409);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/projects/${project._id}`, headers: admin.headers, payload: { confirmName: 'Short-lived site' } });
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.$count(projectDocuments, eq(projectDocuments.projectId, project._id))).toBe(0);
    const left = storedFiles(t.uploadsDir);
    for (const key of keys) expect(left).not.toContain(key);
  });
});
