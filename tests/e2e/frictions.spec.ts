import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, expect, expectNoAxeViolations, PHONE, signInAs, test, useTheme as setTheme } from './fixtures.ts';
import { clientThreadUrl, setUpThread } from './message-setup.ts';

// Issue 21 ("Right in every detail"): the staff and portal screens' small contradictions. Each test
// proves one, is axe-clean, and leaves screenshots of the screen in every look (SCREENS_DIR, else the
// test's output folder).

const SHOTS = process.env.SCREENS_DIR ?? 'test-results/frictions';
mkdirSync(SHOTS, { recursive: true });
const LOOKS = (['light', 'dark'] as const).flatMap((theme) => [PHONE, DESKTOP].map((viewport) => ({ theme, viewport })));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function shoot(page: Page, name: string, theme: string, width: number) {
  await page.screenshot({ path: `${SHOTS}/${name}-${theme}-${width}.png`, fullPage: true });
}

/** Whether every word of the element's text sits on one line (none broken in two). */
async function wordsUnbroken(locator: Locator): Promise<string[]> {
  return locator.evaluate((el) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
}

test('the vendor form\'s pickers count the chosen files instead of saying "No file chosen" beside the list', async ({ page }) => {
  test.setTimeout(120_000);
  for (const { theme, viewport } of LOOKS) {
    await setTheme(page, theme);
    await page.setViewportSize(viewport);
    await page.goto(PATHS.vendorRegistration);
    await expect(page.locator('form[aria-describedby="vendor-form-required-note"][data-ready="true"]')).toBeVisible();
    const certs = page.getByLabel('Certification files (up to 5)');
    await expect(page.getByText('No files chosen')).toHaveCount(2);
    await certs.setInputFiles([
      { name: 'iso-9001.pdf', mimeType: 'application/pdf', buffer: PDF },
      { name: 'iso-45001.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    await expect(page.getByRole('list', { name: 'Chosen certification files' }).getByRole('listitem')).toHaveCount(2);
    await expect(page.getByText('2 files chosen')).toBeVisible();
    await page.getByLabel('Company profile (one file)').setInputFiles({ name: 'profile.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByText('1 file chosen')).toBeVisible();
    // The browser's own control (which says "No file chosen" once the form empties it) is not shown.
    const box = await certs.boundingBox();
    expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
    await expect(page.getByRole('button', { name: 'Remove iso-9001.pdf' })).toBeVisible();
    await page.getByRole('button', { name: 'Remove iso-9001.pdf' }).click();
    await expect(page.getByText('1 file chosen')).toHaveCount(2);
    // The keyboard reaches the picker, and its ring shows on the button.
    await certs.focus();
    await expectNoAxeViolations(page, `vendor pickers ${theme} ${viewport.width}`);
    await page.getByRole('group', { name: 'Supporting Documents' }).screenshot({ path: `${SHOTS}/vendor-pickers-${theme}-${viewport.width}.png` });
  }
});

test('staff dashboard: the report dialog counts its images; project names never break mid-word; one box per selected card; the phone menu is one row', async ({ page }) => {
  test.setTimeout(180_000);
  const setup = await setUpThread(page, 'frictions');
  const longName = `Onne Jetty Rehabilitation and Dredging ${Date.now().toString(36)}`;
  const res = await page.request.post('/api/projects', {
    data: { name: longName, code: `FR-${Date.now().toString(36)}`.toUpperCase(), clientId: setup.client._id },
    headers: { origin: E2E_BASE_URL },
  });
  expect(res.status()).toBe(201);
  const project = (await res.json()).project as { _id: string };
  const url = `${PATHS.adminDashboard}?client=${setup.client._id}&project=${project._id}`;

  for (const { theme, viewport } of LOOKS) {
    await setTheme(page, theme);
    await page.setViewportSize(viewport);
    await page.goto(url);
    const list = page.getByRole('list', { name: `Projects of ${setup.client.name}` });
    const card = list.getByRole('listitem').filter({ hasText: longName });
    await expect(card).toBeVisible();
    expect(await wordsUnbroken(card.locator('span').first()), `${theme} ${viewport.width}`).toEqual([]);
    // The selected card is the only box: its button paints no box of its own, even under the pointer.
    const select = card.getByRole('button', { name: new RegExp(`^${longName}`) });
    await expect(select).toHaveAttribute('aria-current', 'true');
    if (viewport === DESKTOP) await select.hover();
    expect(await select.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    // The menu is one row on a phone (it used to take four, about 200 px, before any content).
    const menu = page.getByRole('navigation', { name: 'Admin' });
    const menuBox = (await menu.boundingBox())!;
    if (viewport === PHONE) {
      expect(menuBox.height, 'menu height at 390 px').toBeLessThan(60);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    }
    await expectNoAxeViolations(page, `dashboard ${theme} ${viewport.width}`);
    await shoot(page, 'admin-dashboard', theme, viewport.width);

    await page.getByRole('button', { name: 'Create Project Report' }).click();
    const dialog = page.getByRole('dialog', { name: /Create Project Report/ });
    const picker = dialog.getByLabel(/^Images/);
    await expect(dialog.getByText('No files chosen')).toBeVisible();
    await picker.setInputFiles([
      { name: 'site-a.png', mimeType: 'image/png', buffer: PNG },
      { name: 'site-b.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect(dialog.getByRole('list', { name: 'Chosen images' }).getByRole('listitem')).toHaveCount(2);
    await expect(dialog.getByText('2 files chosen')).toBeVisible();
    await expectNoAxeViolations(page, `report dialog ${theme} ${viewport.width}`);
    await dialog.getByText('2 files chosen').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/report-dialog-${theme}-${viewport.width}.png` });
    await page.keyboard.press('Escape');
  }
});

test('the portal Send button shows a focus ring that contrasts with its card, light and dark', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const setup = await setUpThread(page, 'focus');
  const context = await browser.newContext();
  const client = await context.newPage();
  await signInAs(client, { role: 'client', account: setup.client });
  for (const { theme, viewport } of LOOKS) {
    await setTheme(client, theme);
    await client.setViewportSize(viewport);
    await client.goto(clientThreadUrl(setup));
    const composer = client.getByRole('form', { name: 'Write a message' });
    await composer.getByLabel('Message', { exact: true }).fill('A question about the jetty.');
    const send = composer.getByRole('button', { name: 'Send' });
    await expect(send).toBeEnabled();
    await send.focus();
    await client.keyboard.press('Shift+Tab');
    await client.keyboard.press('Tab');
    await expect(send).toBeFocused();
    // Buttons ease their colours (transition-colors, outline included): read the ring once settled.
    await send.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    const ring = await send.evaluate((el) => {
      const s = getComputedStyle(el);
      // The colour behind the button: the nearest ancestor with a background.
      let bg = 'rgba(0, 0, 0, 0)';
      for (let p = el.parentElement; p; p = p.parentElement) {
        const c = getComputedStyle(p).backgroundColor;
        if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
          bg = c;
          break;
        }
      }
      // Computed colours may be oklch(): a canvas turns them into sRGB bytes.
      const rgb = (c: string) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.fillStyle = c;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
        return `rgb(${r}, ${g}, ${b})`;
      };
      return { style: s.outlineStyle, width: s.outlineWidth, color: rgb(s.outlineColor), behind: rgb(bg), fill: rgb(s.backgroundColor) };
    });
    expect(ring.style, `${theme} ${viewport.width}`).not.toBe('none');
    expect(contrast(ring.color, ring.behind), `${theme} ${viewport.width}: ${ring.color} on ${ring.behind}`).toBeGreaterThanOrEqual(3);
    // Not the button's own colour: a ring that merges with the fill leaves only the white offset gap
    // to see (brand-600 around brand-700 was 1.3:1, sky-300 around sky-300 1:1).
    expect(contrast(ring.color, ring.fill), `${theme} ${viewport.width}: ${ring.color} around ${ring.fill}`).toBeGreaterThanOrEqual(1.5);
    await expectNoAxeViolations(client, `composer ${theme} ${viewport.width}`);
    await composer.screenshot({ path: `${SHOTS}/portal-send-focus-${theme}-${viewport.width}.png` });
  }
  await context.close();
});

test('the blog table reflows to cards on a phone, never cut off; the admin menu is one row', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, { role: 'admin' });
  const post = await page.request.post('/api/blog/posts', {
    headers: { origin: E2E_BASE_URL },
    data: { title: `Dredging the Bonny channel safely ${Date.now().toString(36)}`, author: 'Site Team', category: 'Safety', excerpt: 'A short summary.', content: '<p>Body.</p>' },
  });
  expect(post.status()).toBe(201);
  for (const { theme, viewport } of LOOKS) {
    await setTheme(page, theme);
    await page.setViewportSize(viewport);
    await page.goto(PATHS.blogList);
    const region = page.getByRole('region', { name: 'Blog posts table' });
    await expect(region).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${theme} ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
    const box = (await region.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    if (viewport === PHONE) {
      const menu = (await page.getByRole('navigation', { name: 'Admin' }).boundingBox())!;
      expect(menu.height, 'menu height at 390 px').toBeLessThan(60);
      // Reflowed to cards: nothing of the row is cut off at the card's edge (it was: 'Auth|').
      expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const row = region.getByRole('row').filter({ hasText: 'Dredging the Bonny channel' });
      for (const text of ['Site Team', 'Safety']) {
        const cell = (await row.getByText(text, { exact: true }).boundingBox())!;
        expect(cell.x + cell.width, text).toBeLessThanOrEqual(viewport.width);
      }
      await expect(row.getByRole('link', { name: /^Edit / })).toBeInViewport();
    }
    await expectNoAxeViolations(page, `blog list ${theme} ${viewport.width}`);
    await shoot(page, 'blog-list', theme, viewport.width);
  }
});

/** WCAG contrast ratio of two CSS rgb()/rgba() colours (alpha ignored: the rings are opaque). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("the blog form's field error goes once the field is edited (a message belongs to one attempt)", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, { role: 'admin' });
  await page.goto(PATHS.blogNew);
  // The editor is a chunk of its own: on a busy machine it takes a while.
  await expect(page.getByRole('textbox', { name: 'Content' })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Create post' }).click();
  const title = page.getByRole('textbox', { name: 'Title' });
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await title.fill('Dredging the channel');
  await expect(title).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, 'blog form after an edit');
});
