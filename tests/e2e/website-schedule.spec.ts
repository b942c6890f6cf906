import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';
import { toZonedInput } from '../../common/dates.ts';
import { expect, expectNoAxeViolations, PHONE, test } from './fixtures.ts';
import { ownServer } from './own-server.ts';
import { recordSecret } from './secret-recorder.ts';
import { draftRegion, expectDraftSaved } from './website-helpers.ts';

// Issue 24's done-when: "an editor schedules a certificate and sees it appear at its time (fake
// clock)". On a server of its own, whose clock only this spec moves (POST /api/test/clock, the
// offset clock of a browser-test process): the shared server's clock must never jump under the
// specs running beside it. The editor puts a new certificate in the third place (the page shows
// exactly three), schedules it two hours ahead through the editor's Schedule control; a visitor's
// /certifications does not show it; the test moves the server's clock past that time, and the
// page shows it at the next tick of the schedule ticker (every 500 ms here).

const server = ownServer('website-schedule', 13);
const BASE = server.base;
const ORIGIN = { origin: BASE };
const SHOTS = 'test-results/website-schedule';
mkdirSync(SHOTS, { recursive: true });
const TWO_HOURS = 2 * 60 * 60_000;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // Its own embedded database and no admin address list, whatever this shell has set.
  const { DATABASE_URL: _db, ADMIN_ALLOWED_CIDRS: _cidrs, SMTP_URL: _smtp, ...inherited } = process.env;
  server.start(
    {
      E2E_TEST_HOOKS: '1',
      CONTENT_SCHEDULE_TICK_MS: '500',
      // The clock jumps two hours: an editor away that long is signed out (2 h idle), and this one
      // comes back to the editor afterwards.
      ADMIN_SESSION_IDLE_MINUTES: '600',
    },
    inherited,
  );
  await server.waitUntil(() => fetch(`${BASE}/api/health`).then((r) => r.ok, () => false), 'server did not start');
});

test.afterAll(() => server.stop());

/** A signed-in editor in `context` (whose baseURL is this server). */
async function editorPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const made = await page.request.post(`${BASE}/api/test/users`, { data: { role: 'admin', name: 'Bisi Editor', staffRole: 'editor' }, headers: ORIGIN });
  expect(made.status()).toBe(201);
  const { user, password } = await made.json();
  recordSecret('a test account password', password);
  const login = await page.request.post(`${BASE}/api/auth/adminlogin`, { data: { email: user.email, password }, headers: ORIGIN });
  expect(login.ok()).toBe(true);
  return page;
}

/** What a signed-out visitor's plain GET of /certifications answers. */
const certificationsHtml = async () => (await fetch(`${BASE}${PATHS.certifications}`)).text();

test('an editor schedules a certificate and sees it appear on /certifications at its time (the server clock moved)', async ({ browser }) => {
  test.setTimeout(180_000);
  const title = 'Lagos State Fire Safety Compliance';
  const replaced = SECTION_SEEDS.certificates.certificates[2]!;
  const context = await browser.newContext({ baseURL: BASE });
  const visitor = await browser.newContext({ baseURL: BASE });
  try {
    const page = await editorPage(context);
    await page.goto(`${PATHS.adminWebsite}/certificates`);
    await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible();
    const third = draftRegion(page).getByRole('group', { name: /^Certificates/ }).getByRole('listitem', { name: /^3\. / });
    await third.getByLabel('Title', { exact: true }).fill(title);
    await third.getByLabel('Issuer', { exact: true }).fill('Lagos State Fire and Rescue Service');
    await third.getByLabel('Date', { exact: true }).fill('2026');
    await third.getByLabel('Description', { exact: true }).fill('Fire safety of our yards, workshops and site offices, inspected every year.');
    await expectDraftSaved(page);

    // Scheduled two hours ahead (Lagos time, to the minute) through the editor's control.
    const publishAt = new Date(Math.ceil((Date.now() + TWO_HOURS) / 60_000) * 60_000);
    const schedule = page.getByRole('region', { name: 'Schedule' });
    await schedule.getByLabel('Publish at').fill(toZonedInput(publishAt.toISOString()));
    await schedule.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'This draft will be published' }).first()).toBeVisible();
    await expect(schedule.getByText(/The draft as it was at scheduling will be published .+ \(set by Bisi Editor\)\./)).toBeVisible();

    // The visitor sees the published three: the old third certificate, not the scheduled one.
    const visit = await visitor.newPage();
    await visit.goto(PATHS.certifications);
    await expect(visit.getByRole('heading', { name: replaced.title })).toBeVisible();
    await expect(visit.getByRole('heading', { name: title })).toHaveCount(0);
    // A few ticks at the real time publish nothing.
    await visit.waitForTimeout(1500);
    expect(await certificationsHtml()).not.toContain(title);

    // The server's clock moves past the scheduled time; the next tick publishes the certificate.
    const moved = await fetch(`${BASE}/api/test/clock`, { method: 'POST', headers: { ...ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: TWO_HOURS + 60_000 }) });
    expect(moved.status).toBe(200);
    const movedAt = Date.now();
    await expect.poll(async () => (await certificationsHtml()).includes(title), { timeout: 10_000, intervals: [100, 250, 500] }).toBe(true);
    console.log(`[website-schedule] /certifications showed the scheduled certificate ${Date.now() - movedAt} ms after the clock moved`);
    await visit.reload();
    await expect(visit.getByRole('heading', { name: title })).toBeVisible();
    await expect(visit.getByRole('heading', { name: replaced.title })).toHaveCount(0);
    await expectNoAxeViolations(visit, 'certifications after the scheduled publish');

    // Back in the editor: nothing is scheduled any more, and History names the scheduled publish.
    await page.reload();
    await expect(schedule.getByText('Publish this draft at a chosen time (Lagos time).')).toBeVisible();
    const history = page.getByRole('region', { name: 'History' });
    await expect(history.getByRole('listitem').first()).toContainText('Published on schedule by Bisi Editor (scheduled)');

    // The certifications editor in the dark theme on a phone, axe-clean, kept to look at.
    await page.setViewportSize(PHONE);
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    // From the list's top: its fixed count said, no Add or Remove (decision 297).
    await draftRegion(page).getByText('The page shows exactly 3 certificates: change them in place.').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -80));
    await expectNoAxeViolations(page, 'certificates editor dark 390');
    await page.screenshot({ path: `${SHOTS}/certificates-editor-dark-390.png` });
  } finally {
    await context.close();
    await visitor.close();
  }
});
