// Screenshots of every public page at 390, 768 and 1280 px, light and dark, plus the open mobile menu,
// against a running server (issue 21). Usage:
//   BASE_URL=http://127.0.0.1:3000 OUT_DIR=/tmp/screens node --import tsx scripts/site-screenshots.ts
// Start the server in development on an empty database first, so the sample posts give an article.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const OUT = path.resolve(process.env.OUT_DIR ?? 'screens');
const PAGES: [name: string, path: string][] = [
  ['home', '/'],
  ['services', '/services'],
  ['about', '/about'],
  ['how-we-work', '/how-we-work'],
  ['projects', '/projects'],
  ['equipments', '/equipments'],
  ['gallery', '/gallery'],
  ['certifications', '/certifications'],
  ['contact', '/contact'],
  ['vendor-registration', '/vendor-registration'],
  ['articles', '/articles'],
  ['article', '/articles/how-we-plan-a-pipeline-tie-in'],
  ['404', '/no-such-page'],
];

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (const theme of ['light', 'dark'] as const) {
  for (const width of [390, 768, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    for (const [name, url] of PAGES) {
      await page.goto(BASE + url, { waitUntil: 'networkidle' });
      // Lazy pictures load once scrolled to: scroll through, then back to the top.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 60));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(OUT, `${name}-${width}-${theme}.png`), fullPage: true });
    }
    if (width < 1280) {
      await page.goto(`${BASE}/about`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(OUT, `menu-open-${width}-${theme}.png`) });
    }
    await context.close();
  }
}
await browser.close();
console.log(`screenshots in ${OUT}`);
