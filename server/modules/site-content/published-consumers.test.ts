import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';
import { ask } from '../../../tests/helpers/chat.ts';
import { startFakeGeminiServer, type FakeGeminiServer } from '../../../tests/helpers/fake-gemini-server.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import { appOnSameDatabase } from '../../../tests/helpers/second-app.ts';
import { staff } from '../../../tests/helpers/site-content.ts';
import type { TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';

// Issue 24, decision 290: what the server makes of the company content besides the pages (the
// profile PDF, the support chat, the mails) reads the published snapshot when it answers, so a
// published phone number is in all of them at once, on every process.

const OLD_PHONE = SECTION_SEEDS.company.phone;
const NEW_PHONE = '+234 809 555 0142';
const NEW_EMAIL = 'hello@published.example';
const GEMINI_KEY = 'test-gemini-key-not-secret-0290';

let t: TestApp;
let smtp: TestSmtpServer;
let gemini: FakeGeminiServer;
let other: Awaited<ReturnType<typeof appOnSameDatabase>>;
let editor: Actor;
let owner: Actor;
let ipCounter = 1;
const ip = () => `198.51.100.${ipCounter++}`;

beforeAll(async () => {
  ({ t, smtp } = await appWithSmtp());
  gemini = await startFakeGeminiServer();
  // The second process answers the chat with the generative service, so its instruction is seen too.
  other = await appOnSameDatabase(t, { GEMINI_API_KEY: GEMINI_KEY, GEMINI_API_URL: gemini.url, GEMINI_MODEL: 'test-model-1' });
  editor = await staff(t, 'editor', 'Ada Editor');
  owner = await staff(t, 'owner', 'Obi Owner');
});
afterAll(async () => {
  await other?.close();
  await t?.close();
  await gemini?.close();
});

const pdfOf = (app: TestApp['app'], headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/api/company-profile.pdf', headers });

/** Saves the company section with these changes as a draft and publishes it, through the editors' routes. */
async function publishCompany(changes: Partial<typeof SECTION_SEEDS.company>) {
  const base = '/api/site-content/sections/company';
  const current = (await t.app.inject({ method: 'GET', url: base, headers: editor.headers })).json();
  const document = { ...current.published.document, ...changes };
  const saved = await t.app.inject({ method: 'PUT', url: `${base}/draft`, headers: editor.headers, payload: { version: current.draft.version, document } });
  expect(saved.statusCode, saved.body).toBe(200);
  const published = await t.app.inject({ method: 'POST', url: `${base}/publish`, headers: editor.headers, payload: { version: saved.json().draft.version } });
  expect(published.statusCode, published.body).toBe(200);
}

describe('a published phone number', () => {
  let before: { etag: string; text: string };

  it('is not there before the publish: everything shows the starting content', async () => {
    for (const app of [t.app, other.app]) {
      const res = await pdfOf(app);
      expect(res.statusCode).toBe(200);
      const text = await pdfText(res.rawPayload);
      expect(text).toContain(`Phone: ${OLD_PHONE}`);
      if (app === t.app) before = { etag: String(res.headers.etag), text };
    }
    const answer = await ask(t.app, 'what is your phone number', { ip: ip() });
    expect(answer.text).toContain(OLD_PHONE);
  });

  it('is in the profile PDF at once, which browsers revalidate by its strong ETag', async () => {
    const first = await pdfOf(t.app);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    // The same state of the content: the same bytes, and a revalidation is a 304 with nothing in it.
    expect(first.headers.etag).toBe(before.etag);
    const revalidated = await pdfOf(t.app, { 'if-none-match': before.etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);

    await publishCompany({ phone: NEW_PHONE, email: NEW_EMAIL });
    await vi.waitFor(() => expect(t.app.publishedContent.get('company').phone).toBe(NEW_PHONE), { timeout: 2000 });

    const after = await pdfOf(t.app, { 'if-none-match': before.etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.etag);
    const text = await pdfText(after.rawPayload);
    expect(text).toContain(`Phone: ${NEW_PHONE}, ${SECTION_SEEDS.company.alternatePhone}`);
    expect(text).toContain(`Email: ${NEW_EMAIL}`);
    expect(text).not.toContain(OLD_PHONE);
    // Only the contact lines changed: the rest of the profile is the same text.
    expect(text.replace(NEW_PHONE, OLD_PHONE).replace(NEW_EMAIL, SECTION_SEEDS.company.email)).toBe(before.text);
  });

  it("is in the support chat's offline answer to 'what is your phone number'", async () => {
    const answer = await ask(t.app, 'what is your phone number', { ip: ip() });
    expect(answer.outcome).toBe('answered');
    expect(answer.text).toContain(`Call us on ${NEW_PHONE}`);
    expect(answer.text).toContain(NEW_EMAIL);
    expect(answer.text).not.toContain(OLD_PHONE);
  });

  it('is in the mails sent after it (the newsletter footer)', async () => {
    smtp.clear();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/issues/test',
      headers: owner.headers,
      payload: { subject: 'Yard news', body: 'The new crane arrived.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitForMail((m) => m.subject === '[Test] Yard news');
    expect(mail.text).toContain(`${NEW_PHONE} · ${NEW_EMAIL}`);
    expect(mail.html).toContain(`${NEW_PHONE} · ${NEW_EMAIL}`);
    expect(mail.text).not.toContain(OLD_PHONE);
  });

  it('reaches the second process within 2 seconds: its PDF, its chat and its AI instruction', async () => {
    // The second process rendered the old PDF in the first test; it serves the new one without a restart.
    await vi.waitFor(
      async () => {
        const res = await pdfOf(other.app);
        expect(await pdfText(res.rawPayload)).toContain(`Phone: ${NEW_PHONE}`);
      },
      { timeout: 2000, interval: 50 },
    );
    gemini.setDefault({ kind: 'stream', chunks: [`Call us on ${NEW_PHONE}.`] });
    const answer = await ask(other.app, 'what is your phone number', { ip: ip() });
    expect(answer.mode).toBe('ai');
    const system = gemini.requests.at(-1)!.body.systemInstruction!.parts[0].text;
    expect(system).toContain(`give the phone ${NEW_PHONE} and e-mail ${NEW_EMAIL}`);
    expect(system).toContain(`Call us on ${NEW_PHONE}`);
    expect(system).not.toContain(OLD_PHONE);
  });

  it('is not rendered again when a section the profile does not print is published', async () => {
    const etag = (await pdfOf(t.app)).headers.etag;
    // Each render has its own creation date, so another render would have another tag.
    expect((await pdfOf(t.app)).headers.etag).toBe(etag);
    const base = '/api/site-content/sections/footer';
    const current = (await t.app.inject({ method: 'GET', url: base, headers: editor.headers })).json();
    const document = { ...current.published.document, newsletterText: 'News from the yard, a few times a year.' };
    const saved = await t.app.inject({ method: 'PUT', url: `${base}/draft`, headers: editor.headers, payload: { version: current.draft.version, document } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${base}/publish`, headers: editor.headers, payload: { version: saved.json().draft.version } })).statusCode).toBe(200);
    await vi.waitFor(() => expect(t.app.publishedContent.get('footer').newsletterText).toBe(document.newsletterText), { timeout: 2000 });
    expect((await pdfOf(t.app)).headers.etag).toBe(etag);
  });

  it('goes back as it came: publishing the old number again shows the old number everywhere', async () => {
    await publishCompany({ phone: OLD_PHONE, email: SECTION_SEEDS.company.email });
    for (const app of [t.app, other.app]) {
      await vi.waitFor(() => expect(app.publishedContent.get('company').phone).toBe(OLD_PHONE), { timeout: 2000 });
      expect(await pdfText((await pdfOf(app)).rawPayload)).toBe(before.text);
    }
    const answer = await ask(t.app, 'what is your phone number', { ip: ip() });
    expect(answer.text).toContain(`Call us on ${OLD_PHONE}`);
  });
});
