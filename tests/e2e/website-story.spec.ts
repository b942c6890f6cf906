import { mkdirSync } from 'node:fs';
import { PATHS } from '../../common/paths.ts';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';
import { CHAT_TEXTS } from '../../common/schemas/chat-texts.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { samplePdf } from '../helpers/sample-files.ts';
import { DESKTOP, expect, expectNoAxeViolations, expectNoAxeViolationsInBothThemes, screenshotEveryLook, signInAs, test } from './fixtures.ts';
import { ownServer } from './own-server.ts';
import { testImage } from './portal-helpers.ts';
import { draftRegion, expectDraftSaved, expectVisitorSeesNoDraft, openPreview, publishInEditor, publishSeed, uploadThroughPicker } from './website-helpers.ts';

// Issue 24 "The website belongs to its owners", its 'Done when' as far as a browser goes: an editor
// publishes a new company phone number and, within 2 s, /contact, the footer of /, the JSON-LD, the
// profile PDF and the chat's answer show it, here and on a second server process on the same
// database; a team member added with an uploaded photo is served in its responsive sizes; a
// certificate gets its PDF (decision 295), shown on /certifications as a download; a draft is
// previewed but never shown to a signed-out visitor; an earlier revision is restored from History
// and published. Every editing screen is axe-clean in the light and the dark theme.

const SHOTS = 'test-results/website-story';
mkdirSync(SHOTS, { recursive: true });
const PG_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app`;
const WITHIN_MS = Number(process.env.WEBSITE_STORY_WITHIN_MS ?? 2000);

const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as { telephone?: string });

/** What a visitor's plain GET of `url` answers: status, type and body. */
async function visit(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

test.describe.configure({ mode: 'serial' });

test('the website belongs to its owners: publish, see it everywhere and on a second process, photos, a certificate PDF, preview, history', async ({ page, browser, baseURL }) => {
  test.setTimeout(420_000);
  const origin = baseURL!;
  const stamp = String(Date.now()).slice(-4);
  const phone = `+234 803 555 ${stamp}`;
  const memberName = `Ifeoma Nwosu ${stamp}`;
  const certificate = SECTION_SEEDS.certificates.certificates[0]!;
  const pdfTitle = `${certificate.title} certificate ${stamp}`;

  // A second server process on the same database, as behind a load balancer: it must see a publish
  // made through the first without a restart.
  const second = ownServer('website-story', 11);
  second.start({ DATABASE_URL: PG_URL, SERVE_WEB: 'true' });

  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Amaka Owner', staffRole: 'editor' });
  try {
    await second.waitUntil(async () => (await fetch(`${second.base}/api/health`).catch(() => null))?.ok === true, 'the second server did not start');

    // A running site has served its profile before: its first render on a process (fonts loaded) is not what a publish costs.
    const profileBefore = new Map<string, string>();
    for (const base of [origin, second.base]) {
      const res = await fetch(`${base}/api/company-profile.pdf`);
      expect(res.status).toBe(200);
      profileBefore.set(base, res.headers.get('etag') ?? '');
      await res.arrayBuffer();
    }

    // 1. The company phone number, published; then every output shows it within 2 s, on both processes.
    await page.goto(`${PATHS.adminWebsite}/company`);
    await expect(page.getByRole('heading', { name: 'Company profile', level: 1 })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'company editor');
    await draftRegion(page).getByLabel('Phone', { exact: true }).fill(phone);
    await expectDraftSaved(page);
    const { answeredAt } = await publishInEditor(page);

    const seen: Record<string, number> = {};
    const failures: Record<string, string> = {};
    const shows = (name: string, check: () => Promise<boolean>) =>
      expect
        .poll(
          async () => {
            const ok = await check().catch((err: unknown) => {
              failures[name] = String(err);
              return false;
            });
            if (ok) seen[name] ??= Date.now() - answeredAt;
            return ok;
          },
          { timeout: WITHIN_MS, intervals: [50, 100, 200], message: `${name} within ${WITHIN_MS} ms (${failures[name] ?? 'not shown yet'})` },
        )
        .toBe(true);
    const profiles = new Map<string, Buffer>();
    const htmlOf = async (url: string) => (await visit(url)).body.toString('utf8');
    await Promise.all(
      [origin, second.base].flatMap((base, i) => [
        shows(`contact page (process ${i + 1})`, async () => (await htmlOf(`${base}${PATHS.contact}`)).includes(phone)),
        shows(`home footer and JSON-LD (process ${i + 1})`, async () => {
          const html = await htmlOf(`${base}${PATHS.home}`);
          const footer = /<footer[\s\S]*<\/footer>/.exec(html)?.[0] ?? '';
          return footer.includes(phone) && jsonLdOf(html).some((ld) => ld.telephone === phone);
        }),
        // A new profile (its ETag changed) is timed; its text is read after, untimed: reading a PDF here
        // costs this test process CPU that would delay the other checks' answers.
        shows(`profile PDF (process ${i + 1})`, async () => {
          const res = await fetch(`${base}/api/company-profile.pdf`);
          const body = Buffer.from(await res.arrayBuffer());
          if (res.headers.get('content-type') !== 'application/pdf' || res.headers.get('etag') === profileBefore.get(base)) return false;
          profiles.set(base, body);
          return true;
        }),
      ]),
    );
    for (const [base, pdf] of profiles) expect(await pdfText(pdf), `profile PDF of ${base}`).toContain(phone);
    console.log(`[website-story] ms from the publish's answer until each output showed the new phone: ${JSON.stringify(seen)}`);
    // A poll passes when an attempt that began in time answers, however late: the time each answer
    // came is the measure. Soft, so the rest of the story still runs when a loaded machine is slow.
    for (const [name, ms] of Object.entries(seen)) expect.soft(ms, `${name}: ms from the publish's answer`).toBeLessThanOrEqual(WITHIN_MS);

    // What a visitor's browser shows: the contact page, the footer, the JSON-LD and the chat's answer.
    await page.goto(PATHS.contact);
    await expect(page.getByRole('main').getByRole('link', { name: phone })).toBeVisible();
    await page.goto(PATHS.home);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: phone })).toBeVisible();
    const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(ld.map((s) => JSON.parse(s) as { telephone?: string }).some((l) => l.telephone === phone)).toBe(true);
    await page.getByRole('button', { name: 'Open customer support chat' }).click();
    const chat = page.getByRole('dialog', { name: 'Customer Support' });
    await chat.getByRole('textbox', { name: CHAT_TEXTS.inputLabel }).fill('What is your phone number?');
    const asked = Date.now();
    await chat.getByRole('textbox', { name: CHAT_TEXTS.inputLabel }).press('Enter');
    await expect(chat.locator('[data-chat-message="assistant"]').nth(1)).toContainText(phone);
    console.log(`[website-story] chat answered with the new phone in ${Date.now() - asked} ms`);
    // The panel's own fallback words (its phone link) are the published ones too.
    await expect(page.getByRole('button', { name: 'Open customer support chat' })).toHaveAttribute('data-phone', phone);
    await chat.getByRole('button', { name: CHAT_TEXTS.closeButton }).click();

    // 2. A team member with an uploaded photo: the page serves its responsive sizes.
    await page.goto(`${PATHS.adminWebsite}/team`);
    await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'team editor');
    await draftRegion(page).getByRole('button', { name: 'Add team member' }).click();
    const added = draftRegion(page).getByRole('listitem', { name: /\. Team member \d+$/ });
    await added.getByLabel('Name', { exact: true }).fill(memberName);
    const member = draftRegion(page).getByRole('listitem', { name: new RegExp(memberName) });
    await member.getByLabel('Position', { exact: true }).fill('Quantity Surveyor');
    await member.getByLabel('Bio', { exact: true }).fill('Ifeoma prices the works and keeps the budgets of the marine projects honest.');
    await uploadThroughPicker(
      page,
      member.getByRole('button', { name: 'Choose image' }),
      { name: 'ifeoma.jpg', mimeType: 'image/jpeg', buffer: await testImage('jpeg', '#2f6f4f', { width: 900, height: 900 }) },
      `${memberName} at her desk with drawings`,
    );
    await expectDraftSaved(page);
    await publishInEditor(page);
    await page.goto(PATHS.about);
    const portrait = page.getByRole('img', { name: `Portrait of ${memberName}` });
    await expect(portrait).toBeVisible();
    // AVIF in the <source>, WebP in the <img>'s own srcset: every width of both.
    const srcsets = await portrait
      .locator('xpath=ancestor::picture[1]')
      .evaluate((picture) => [...picture.querySelectorAll('source, img')].map((el) => el.getAttribute('srcset') ?? ''));
    const urls = srcsets.flatMap((s) => s.split(',').map((part) => part.trim().split(/\s+/)[0]!)).filter(Boolean);
    // A 900 px photo: 320, 640 and its own 900, in AVIF and in WebP.
    expect(urls.filter((u) => u.endsWith('.avif'))).toHaveLength(3);
    expect(urls.filter((u) => u.endsWith('.webp'))).toHaveLength(3);
    for (const url of urls) {
      const res = await page.request.get(url);
      expect(res.status(), url).toBe(200);
      expect(res.headers()['content-type'], url).toMatch(/^image\/(avif|webp)$/);
    }
    expect(await portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // 3. A certificate's PDF: chosen through a picker that takes PDFs only, then a download on /certifications.
    await page.goto(`${PATHS.adminWebsite}/certificates`);
    await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible();
    const first = draftRegion(page).getByRole('group', { name: /^Certificates/ }).getByRole('listitem', { name: /^1\. / });
    await uploadThroughPicker(
      page,
      first.getByRole('button', { name: 'Choose PDF' }),
      { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: samplePdf(pdfTitle) },
      pdfTitle,
      'pdf',
    );
    await expect(first.getByRole('link', { name: pdfTitle })).toBeVisible();
    await expect(first.getByRole('button', { name: 'Change PDF' })).toBeFocused();
    await expectDraftSaved(page);
    await screenshotEveryLook(page, 'certificate-pdf-field', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await first.getByRole('button', { name: 'Change PDF' }).scrollIntoViewIfNeeded();
      await expectNoAxeViolations(page, `certificates editor ${theme} ${viewport.width}`);
    });
    // The PDF picker: PDFs only, axe-clean in both themes.
    await first.getByRole('button', { name: 'Change PDF' }).click();
    const pdfPicker = page.getByRole('dialog', { name: 'Choose a PDF' });
    await expect(pdfPicker.getByRole('button', { name: pdfTitle })).toHaveAttribute('aria-pressed', 'true');
    await expect(pdfPicker.getByRole('button', { name: `${memberName} at her desk with drawings` })).toHaveCount(0);
    await expectNoAxeViolationsInBothThemes(page, 'PDF picker');
    await pdfPicker.getByRole('button', { name: 'Close dialog' }).click();
    const { revision: withPdf } = await publishInEditor(page);

    await page.goto(PATHS.certifications);
    const download = page.getByRole('link', { name: new RegExp(`^Download certificate \\(PDF, \\d+ KB\\): ${certificate.title}$`) });
    await expect(download).toBeVisible();
    const href = (await download.getAttribute('href'))!;
    const served = await page.request.get(href);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('application/pdf');
    expect(served.headers()['x-content-type-options']).toBe('nosniff');
    expect(served.headers()['content-disposition']).toMatch(/^attachment; filename="certificate\.pdf"/);
    expect(await pdfText(await served.body())).toContain(pdfTitle);
    await screenshotEveryLook(page, 'certifications-pdf', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await expect(download).toBeVisible();
      await expectNoAxeViolations(page, `certifications ${theme} ${viewport.width}`);
    });

    // 4. A draft, previewed on its page; a signed-out visitor can open neither the preview nor see it live.
    await page.goto(`${PATHS.adminWebsite}/certificates`);
    const draftTitle = `Draft certificate ${stamp}`;
    await first.getByLabel('Title', { exact: true }).fill(draftTitle);
    await expectDraftSaved(page);
    const preview = await openPreview(page);
    await expect(preview.getByRole('heading', { name: draftTitle })).toBeVisible();
    await preview.close();
    await expectVisitorSeesNoDraft(browser, origin, 'certificates', PATHS.certifications, draftTitle);

    // 5. History: the revision before the PDF restored as the draft and published; the PDF link goes.
    const history = page.getByRole('region', { name: 'History' }).or(page.locator('section[aria-labelledby="history-heading"]'));
    await history.getByRole('button', { name: `Restore as draft (revision ${withPdf - 1})` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Revision ${withPdf - 1} is now the draft` }).first()).toBeVisible();
    await expect(first.getByLabel('Title', { exact: true })).toHaveValue(certificate.title);
    await expect(first.getByRole('button', { name: 'Choose PDF' })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'certificates editor after a restore');
    const { revision: restored } = await publishInEditor(page);
    expect(restored).toBe(withPdf + 1);
    await page.goto(PATHS.certifications);
    await expect(page.getByRole('heading', { name: certificate.title })).toBeVisible();
    await expect(page.locator('[data-certificate-pdf]')).toHaveCount(0);
  } finally {
    for (const section of ['company', 'team', 'certificates'] as const) await publishSeed(page, section);
    await second.stop();
  }
});
