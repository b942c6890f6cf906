import { mkdirSync } from 'node:fs';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, test, useTheme } from './fixtures.ts';
import { PATHS } from '../../common/paths.ts';

const PAGES = [PATHS.home, PATHS.services, PATHS.about, PATHS.howWeWork, PATHS.projects, PATHS.equipments, PATHS.gallery, PATHS.certifications];
// Screenshots for people to look at (not compared): <output dir>/site-screens/.
const shotsDir = () => `${test.info().project.outputDir}/site-screens`;

for (const theme of ['light', 'dark'] as const) {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`content pages are axe-clean in the ${theme} theme at ${viewport.width} px`, async ({ page }) => {
      test.setTimeout(120_000);
      const SHOTS = shotsDir();
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize(viewport);
      await useTheme(page, theme);
      // A still page: no rotation while axe reads it.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      for (const path of PAGES) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
        await page.waitForLoadState('networkidle');
        await expectNoAxeViolations(page, `${path} (${theme}, ${viewport.width} px)`);
        // Scroll through once so lazy pictures are in the screenshot.
        await page.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += 600) {
            window.scrollTo(0, y);
            await new Promise((r) => setTimeout(r, 40));
          }
          window.scrollTo(0, 0);
        });
        await page.waitForLoadState('networkidle');
        const name = path === '/' ? 'home' : path.slice(1);
        await page.screenshot({ path: `${SHOTS}/${name}-${viewport.width}-${theme}.png`, fullPage: true });
      }
    });
  }
}

test('Tab moves through the home slider and out of it without getting stuck', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.home);
  await page.getByRole('button', { name: 'Pause slideshow' }).focus();
  const visited: string[] = [];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    visited.push(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''));
  }
  expect(visited.slice(0, 6)).toEqual(Array.from({ length: 6 }, (_, i) => expect.stringMatching(new RegExp(`^Show slide ${i + 1}:`))));
  expect(visited[6]).toMatch(/^Learn More about/);
});
