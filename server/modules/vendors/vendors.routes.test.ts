import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../common/errors.ts';
import { VENDOR_FILE_MAX_BYTES, VENDOR_REQUIRED_FIELDS, VENDOR_TEXT_FIELDS } from '../../../common/schemas/vendors.ts';
import { vendorApplications, vendorDocuments } from '../../db/schema/vendors.ts';
import { sampleFiles } from '../../../tests/helpers/forms.ts';
import {
  cert, counts, filesUnder, MB, nextIp, profile, smtp, STAFF, submit, t, setUpVendorApp, VALID,
} from '../../../tests/helpers/vendor-application.ts';

setUpVendorApp();

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
