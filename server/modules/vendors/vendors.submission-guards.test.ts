import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FORM_MIN_FILL_MS } from '../../../common/form-guard.ts';
import { VENDOR_TEXT_FIELDS } from '../../../common/schemas/vendors.ts';
import { createLocalStorage } from '../../storage/local-storage.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { sampleFiles } from '../../../tests/helpers/forms.ts';
import { freePort } from '../../../tests/helpers/free-port.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { cert, counts, profile, smtp, submit, t, setUpVendorApp, VALID } from '../../../tests/helpers/vendor-application.ts';

setUpVendorApp();

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
