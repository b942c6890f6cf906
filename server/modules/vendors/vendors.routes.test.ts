import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../common/errors.ts';
import { FORM_MIN_FILL_MS } from '../../../common/form-guard.ts';
import { VENDOR_FILE_MAX_BYTES, VENDOR_REQUIRED_FIELDS, VENDOR_TEXT_FIELDS, type VendorApplicationFields } from '../../../common/schemas/vendors.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { vendorApplications, vendorDocuments, vendorStatusChanges } from '../../db/schema/vendors.ts';
import { createLocalStorage } from '../../storage/local-storage.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { formToken, multipartBody, sampleFiles, type UploadFile } from '../../../tests/helpers/forms.ts';
import { freePort } from '../../../tests/helpers/free-port.ts';
import type { TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';

const STAFF = 'procurement@example.test';
const MB = 1024 * 1024;

const VALID: VendorApplicationFields = {
  companyName: 'Acme <Pipes> & Valves',
  companyPhone: '+234 800 111 2222',
  companyAddress: '1 Wharf Road\nPort Harcourt',
  companyEmail: 'vendor@acme.example',
  website: 'https://acme.example',
  previousAddress: '',
  contactPersonName: 'Ngozi Okafor',
  contactPersonAddress: '',
  contactPersonEmail: 'ngozi@acme.example',
  contactPersonPhone: '+234 800 333 4444',
  businessType: 'Supplier',
  taxId: 'TIN-1234',
  registrationNumber: 'RC 123456',
  compliant: 'Yes',
  certifications: 'ISO 9001',
  experience: '10 years of pipe supply',
  references: 'Client A',
  bankDetails: 'Bank X, 0123456789',
};

let ipCounter = 1;
/** Each submission from its own address, so the rate limit only bites where a test wants it to. */
const nextIp = () => `198.51.100.${ipCounter++ % 250}`;

interface SubmitOptions {
  ip?: string;
  /** null: send no token; undefined: a fresh token with the minimum fill time waited out. */
  token?: string | null;
  honeypot?: string;
}

async function submit(t: TestApp, fields: Partial<Record<string, string>>, files: UploadFile[] = [], options: SubmitOptions = {}) {
  const token = options.token === undefined ? await formToken(t, 'vendor') : options.token;
  const guard: Record<string, string> = { homepageUrl: options.honeypot ?? '' };
  if (token !== null) guard.formToken = token;
  const body = await multipartBody({ ...guard, ...(fields as Record<string, string>) }, files);
  return t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: options.ip ?? nextIp() });
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function counts(t: TestApp) {
  const db = t.database.db;
  const [[a], [d], [s], [m]] = await Promise.all([
    db.select({ n: count() }).from(vendorApplications),
    db.select({ n: count() }).from(vendorDocuments),
    db.select({ n: count() }).from(vendorStatusChanges),
    db.select({ n: count() }).from(mailOutbox),
  ]);
  return { applications: a.n, documents: d.n, statusChanges: s.n, mails: m.n, files: filesUnder(t.uploadsDir).length };
}

const cert = (name: string, content: Buffer): UploadFile => ({ field: 'certificationsFiles', name, content, type: 'application/pdf' });
const profile = (name: string, content: Buffer): UploadFile => ({ field: 'companyProfile', name, content, type: 'application/pdf' });

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => ({ t, smtp } = await appWithSmtp({ STAFF_EMAIL: STAFF })));
afterAll(() => t?.close());

describe('vendor registration: a complete application', () => {
  it('stores the application with its documents, answers with a reference and mails staff and the applicant', async () => {
    const png = await sampleFiles.png();
    const files = [cert('iso-9001.pdf', sampleFiles.pdf(5000)), cert('permit.png', png), profile('Company Profile 2024.pdf', sampleFiles.pdf(8000))];
    const res = await submit(t, VALID, files);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Your vendor registration has been submitted.' });
    expect(body.reference).toMatch(/^VR-20261122-[0-9A-HJKMNP-TV-Z]{6}$/);

    const [row] = await t.database.db.select().from(vendorApplications);
    expect(row).toMatchObject({ ...VALID, reference: body.reference, status: 'new' });
    const docs = await t.database.db.select().from(vendorDocuments);
    expect(docs.map((d) => [d.kind, d.originalName, d.mimeType, d.size]).sort()).toEqual(
      [
        ['certification', 'iso-9001.pdf', 'application/pdf', 5000],
        ['certification', 'permit.png', 'image/png', png.length],
        ['company-profile', 'Company Profile 2024.pdf', 'application/pdf', 8000],
      ].sort(),
    );
    // The bytes on disk are the bytes sent, under server-made names.
    const stored = filesUnder(t.uploadsDir);
    expect(stored).toHaveLength(3);
    expect(stored.map((f) => readFileSync(f).length).sort()).toEqual([5000, 8000, png.length].sort());
    expect(stored.every((f) => !f.includes('Company Profile'))).toBe(true);

    const staff = await smtp.waitForMail((m) => m.envelopeTo.includes(STAFF));
    expect(staff.subject).toBe(`New Vendor Registration: Acme <Pipes> & Valves (${body.reference})`);
    for (const key of VENDOR_TEXT_FIELDS) if (VALID[key]) expect(staff.text).toContain(VALID[key].split('\n')[0]);
    expect(staff.text).toContain('Company profile: Company Profile 2024.pdf');
    expect(staff.text).toContain(`/secured/v1/admin/vendor-applications/${row.id}`);
    expect(staff.html).toContain('Acme &lt;Pipes&gt; &amp; Valves');
    expect(staff.html).not.toContain('<Pipes>');
    expect(staff.headers['reply-to']).toContain('vendor@acme.example');

    const ack = await smtp.waitForMail((m) => m.envelopeTo.includes('vendor@acme.example'));
    expect(ack.subject).toBe(`We received your vendor registration (${body.reference})`);
    expect(ack.text).toContain(body.reference);
    // No text from the form in a mail to a typed address (decision 116, issue 16).
    expect(ack.text).toContain('Hello,');
    expect(ack.text).not.toContain('Ngozi');
  });

  it('accepts an application without documents and with only the required fields', async () => {
    const required = Object.fromEntries(VENDOR_REQUIRED_FIELDS.map((k) => [k, VALID[k]]));
    const res = await submit(t, { ...required, compliant: 'No' });
    expect(res.statusCode).toBe(200);
  });

  it('accepts every allowed type when the bytes match: doc, docx, jpg, jpeg, xls', async () => {
    const jpg = await sampleFiles.jpg();
    const res = await submit(t, VALID, [
      cert('a.doc', sampleFiles.doc()),
      cert('b.docx', sampleFiles.docx()),
      cert('c.jpg', jpg),
      cert('d.JPEG', jpg),
      cert('e.xls', sampleFiles.doc()),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const docs = await t.database.db.select({ name: vendorDocuments.originalName, mime: vendorDocuments.mimeType }).from(vendorDocuments);
    expect(docs).toEqual(
      expect.arrayContaining([
        { name: 'a.doc', mime: 'application/msword' },
        { name: 'b.docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        { name: 'c.jpg', mime: 'image/jpeg' },
        { name: 'd.JPEG', mime: 'image/jpeg' },
        { name: 'e.xls', mime: 'application/vnd.ms-excel' },
      ]),
    );
  });
});

describe('vendor registration: the reference date', () => {
  it('dates the reference by the Lagos calendar, not UTC (issue 22)', async () => {
    // 23:30 UTC on the 22nd is 00:30 on the 23rd in Lagos.
    t.clock.set(new Date('2026-11-22T23:30:00Z'));
    const res = await submit(t, VALID);
    expect(res.statusCode).toBe(200);
    expect(res.json().reference).toMatch(/^VR-20261123-[0-9A-HJKMNP-TV-Z]{6}$/);
  });
});

describe('vendor registration: validation', () => {
  let before: Awaited<ReturnType<typeof counts>>;
  beforeEach(async () => {
    before = await counts(t);
  });

  for (const field of VENDOR_REQUIRED_FIELDS) {
    it(`refuses an application without ${field}, naming the field in words, and stores nothing`, async () => {
      const words = field.replace(/([A-Z])/g, ' $1').toLowerCase();
      const res = await submit(t, { ...VALID, [field]: field === 'compliant' ? '' : '   ' }, [cert('a.pdf', sampleFiles.pdf())]);
      expect(res.statusCode).toBe(400);
      expect(apiErrorSchema.parse(res.json())).toMatchObject({ code: 'VALIDATION_FAILED', message: `Please fill in the ${words} field` });
      expect(await counts(t)).toEqual(before);
    });
  }

  it('reports the first missing field in the order of the form', async () => {
    const res = await submit(t, {});
    expect(res.json().message).toBe('Please fill in the company name field');
  });

  it('accepts only Yes or No for compliant', async () => {
    const res = await submit(t, { ...VALID, compliant: 'Maybe' });
    expect(res.json().message).toBe('Please fill in the compliant field');
  });

  it('checks both e-mail fields as e-mail addresses', async () => {
    expect((await submit(t, { ...VALID, companyEmail: 'not-an-email' })).json().message).toBe('Please enter a valid company email address');
    expect((await submit(t, { ...VALID, contactPersonEmail: 'nope@' })).json().message).toBe('Please enter a valid contact person email address');
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a text field over its length limit', async () => {
    const res = await submit(t, { ...VALID, companyName: 'x'.repeat(201) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/company name field is too long/);
  });

  it('refuses a sixth certification file', async () => {
    const six = Array.from({ length: 6 }, (_, i) => cert(`c${i}.pdf`, sampleFiles.pdf()));
    const res = await submit(t, VALID, six);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You can upload a maximum of 5 certification files');
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a second company profile', async () => {
    const res = await submit(t, VALID, [profile('a.pdf', sampleFiles.pdf()), profile('b.pdf', sampleFiles.pdf())]);
    expect(res.statusCode).toBe(400);
    expect(await counts(t)).toEqual(before);
  });
});

describe('vendor registration: file limits and types', () => {
  let before: Awaited<ReturnType<typeof counts>>;
  beforeEach(async () => {
    before = await counts(t);
  });

  it('accepts a certification of exactly 10 MB and refuses one byte more, by name', async () => {
    expect((await submit(t, VALID, [cert('exact.pdf', sampleFiles.pdf(VENDOR_FILE_MAX_BYTES))])).statusCode).toBe(200);
    before = await counts(t);
    const res = await submit(t, VALID, [cert('big.pdf', sampleFiles.pdf(VENDOR_FILE_MAX_BYTES + 1))]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'File big.pdf exceeds 10MB limit' });
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a company profile one byte over 10 MB', async () => {
    const res = await submit(t, VALID, [profile('profile.pdf', sampleFiles.pdf(VENDOR_FILE_MAX_BYTES + 1))]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Company profile exceeds 10MB limit');
    expect(await counts(t)).toEqual(before);
  });

  it('accepts exactly 20 MB in all and refuses one byte more, leaving no file behind', async () => {
    const half = sampleFiles.pdf(10 * MB);
    expect((await submit(t, VALID, [cert('a.pdf', half), profile('p.pdf', half)])).statusCode).toBe(200);
    before = await counts(t);
    const res = await submit(t, VALID, [cert('a.pdf', half), cert('b.pdf', half), profile('p.pdf', sampleFiles.pdf(1024).subarray(0, 1))]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Total attachments exceed 20MB limit');
    expect(await counts(t)).toEqual(before);
  });

  it('refuses wrong bytes behind an allowed extension', async () => {
    for (const file of [cert('notes.pdf', sampleFiles.text()), cert('photo.png', sampleFiles.pdf()), cert('sheet.xlsx', sampleFiles.pdf()), cert('scan.jpg', await sampleFiles.png())]) {
      const res = await submit(t, VALID, [cert('good.pdf', sampleFiles.pdf()), file]);
      expect(res.statusCode, file.name).toBe(415);
      expect(res.json().message).toBe(`File ${file.name} is not an accepted type (PDF, Word, Excel, JPG or PNG)`);
    }
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a file whose extension is not on the list, whatever its bytes', async () => {
    const res = await submit(t, VALID, [cert('tool.exe', sampleFiles.pdf())]);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('File tool.exe is not an accepted type (PDF, Word, Excel, JPG or PNG)');
    expect(await counts(t)).toEqual(before);
  });

  it('keeps only the base name of a file sent with a path', async () => {
    const res = await submit(t, VALID, [cert('C:\\Users\\ngozi\\..\\secret\\cert.pdf', sampleFiles.pdf())]);
    expect(res.statusCode).toBe(200);
    const names = (await t.database.db.select({ n: vendorDocuments.originalName }).from(vendorDocuments)).map((r) => r.n);
    expect(names).toContain('cert.pdf');
  });

  it('refuses a body that is not multipart', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', payload: VALID, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(415);
  });
});

describe('vendor registration: keeping bots out', () => {
  let before: Awaited<ReturnType<typeof counts>>;
  beforeEach(async () => {
    before = await counts(t);
    smtp.clear();
  });

  it('answers a filled honeypot like a success but stores, writes and mails nothing', async () => {
    const res = await submit(t, VALID, [cert('a.pdf', sampleFiles.pdf())], { honeypot: 'https://spam.example' });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    expect(await counts(t)).toEqual(before);
    expect(smtp.messages).toHaveLength(0);
  });

  it('refuses a form sent back faster than a person can fill it in', async () => {
    const token = (await t.app.inject({ method: 'GET', url: '/api/form-token' })).json().token;
    t.clock.advance(FORM_MIN_FILL_MS.vendor - 1000);
    const res = await submit(t, VALID, [cert('a.pdf', sampleFiles.pdf())], { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('That was very quick. Please check the form, then send it again.');
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a missing, forged or day-old form token', async () => {
    const forged = `${t.clock.now().getTime() - 60_000}.${'A'.repeat(43)}`;
    const token = (await t.app.inject({ method: 'GET', url: '/api/form-token' })).json().token;
    const [issued, signature] = token.split('.');
    const backdated = `${Number(issued) - 60_000}.${signature}`;
    for (const bad of [null, '', 'garbage', forged, backdated]) {
      const res = await submit(t, VALID, [], { token: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().message).toBe('This form has expired. Please reload the page and try again.');
    }
    t.clock.advance(25 * 60 * 60_000);
    const stale = await submit(t, VALID, [], { token });
    expect(stale.json().message).toBe('This form has expired. Please reload the page and try again.');
    expect(await counts(t)).toEqual(before);
    expect(smtp.messages).toHaveLength(0);
  });

  it('limits submissions per address and tells the visitor when to try again', async () => {
    const ip = '203.0.113.50';
    // Start of an hour, so the window does not roll over in the middle of the test.
    t.clock.set(new Date('2026-11-23T10:00:00Z'));
    for (let i = 0; i < 5; i++) expect((await submit(t, { ...VALID, companyName: '' }, [], { ip })).statusCode).toBe(400);
    const limited = await submit(t, VALID, [cert('a.pdf', sampleFiles.pdf())], { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/^Too many submissions from your network\. Please try again in \d+ minutes/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await counts(t)).toEqual(before);
    // Another address is not affected; the same one may send again in the next hour.
    expect((await submit(t, VALID, [], { ip: '203.0.113.51' })).statusCode).toBe(200);
    t.clock.advance(60 * 60_000);
    expect((await submit(t, VALID, [], { ip })).statusCode).toBe(200);
  });
});

describe('vendor registration: forwarding to the form-mail service', () => {
  let server: http.Server;
  let received: Promise<{ contentType: string; body: Buffer; url: string }>;
  let local: TestApp;
  beforeAll(async () => {
    const port = await freePort();
    let resolve!: (v: { contentType: string; body: Buffer; url: string }) => void;
    received = new Promise((r) => (resolve = r));
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        resolve({ contentType: String(req.headers['content-type']), body: Buffer.concat(chunks), url: req.url ?? '' });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: 'true', message: 'The form was submitted successfully.' }));
      });
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    local = await createTestApp({ FORMMAIL_URL: `http://127.0.0.1:${port}/ajax/procurement@example.test` });
  });
  afterAll(async () => {
    await local.close();
    await new Promise((r) => server.close(r));
  });

  it('posts every text field, the files under certifications and companyProfile, the table template, no captcha and the subject', async () => {
    const png = await sampleFiles.png();
    const res = await submit(local, VALID, [cert('one.pdf', sampleFiles.pdf(3000)), cert('two.png', png), profile('profile.pdf', sampleFiles.pdf(4000))]);
    expect(res.statusCode).toBe(200);
    const got = await received;
    expect(got.url).toBe('/ajax/procurement@example.test');
    expect(got.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(got.body), { headers: { 'content-type': got.contentType } }).formData();
    // Multipart carries line breaks as CRLF, as browsers send them.
    for (const key of VENDOR_TEXT_FIELDS) expect(String(form.get(key)).replace(/\r\n/g, '\n'), key).toBe(VALID[key]);
    expect(form.get('_template')).toBe('table');
    expect(form.get('_captcha')).toBe('false');
    expect(form.get('_subject')).toBe('New Vendor Registration: Acme <Pipes> & Valves');
    const certs = form.getAll('certifications').filter((v): v is File => typeof v !== 'string');
    expect(certs.map((f) => [f.name, f.size])).toEqual([
      ['one.pdf', 3000],
      ['two.png', png.length],
    ]);
    const prof = form.get('companyProfile') as File;
    expect([prof.name, prof.size, prof.type]).toEqual(['profile.pdf', 4000, 'application/pdf']);
    expect(form.has('formToken')).toBe(false);
    expect(form.has('homepageUrl')).toBe(false);
  });
});

describe('vendor registration: all or nothing', () => {
  function failingStorage(uploadsDir: string, failOnPut: number): FileStorage {
    const real = createLocalStorage(uploadsDir);
    let puts = 0;
    return {
      ...real,
      async put(key, body, options) {
        if (++puts === failOnPut) {
          // Like a disk or network failure in the middle of the upload.
          if (!Buffer.isBuffer(body)) body.resume();
          throw new Error('storage unavailable');
        }
        return real.put(key, body, options);
      },
    };
  }

  it('removes the files already written when storing a later file fails, and stores no application', async () => {
    const local = await createTestApp({}, { storage: (dir) => failingStorage(dir, 3) });
    try {
      const res = await submit(local, VALID, [cert('a.pdf', sampleFiles.pdf()), cert('b.pdf', sampleFiles.pdf()), profile('c.pdf', sampleFiles.pdf())]);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ success: false, code: 'INTERNAL' });
      expect(await counts(local)).toEqual({ applications: 0, documents: 0, statusChanges: 0, mails: 0, files: 0 });
    } finally {
      await local.close();
    }
  });

  it('removes the written files and stores nothing when the database fails in the middle of the transaction', async () => {
    const local = await createTestApp({ SMTP_URL: smtp.url });
    smtp.clear();
    try {
      // The database refuses the status history row, after the application and documents were inserted.
      await local.database.pool.query(`
        CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER refuse_status BEFORE INSERT ON vendor_status_changes FOR EACH ROW EXECUTE FUNCTION refuse();
      `);
      const res = await submit(local, VALID, [cert('a.pdf', sampleFiles.pdf()), profile('c.pdf', sampleFiles.pdf())]);
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toContain('disk full');
      expect(await counts(local)).toEqual({ applications: 0, documents: 0, statusChanges: 0, mails: 0, files: 0 });
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await local.close();
    }
  });
});
