import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { team } from '../../common/content/team.ts';
import { about } from '../../common/content/about.ts';
import { companyFacts } from '../../common/content/facts.ts';
import { PATHS } from '../../common/paths.ts';

test('Download Company Profile downloads a valid PDF', async ({ page }) => {
  await page.goto(PATHS.about);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download Company Profile' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('company-profile.pdf');
  const pdf = readFileSync((await download.path())!).toString('latin1');
  expect(pdf.startsWith('%PDF-1.')).toBe(true);
  expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(pdf)?.[1]);
  expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
});

test('tells the story, vision, mission, values and key strengths', async ({ page }) => {
  await page.goto(PATHS.about);
  await expect(page.getByRole('heading', { level: 1, name: 'About Us' })).toBeVisible();
  for (const name of ['Our Story', 'Vision', 'Mission', 'Values', 'Key Strengths', 'Meet Our Team']) {
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  await expect(page.getByText(about.vision)).toBeVisible();
  await expect(page.getByText(about.mission)).toBeVisible();
  const strengths = page.getByRole('region', { name: 'Key Strengths' }).getByRole('heading', { level: 3 });
  await expect(strengths).toHaveText(['45% Minimum Owned Equipment', 'Technical Partnership', 'Recruitment Policy']);
  expect(companyFacts.minimumOwnedEquipmentPercent).toBe(45);
  await expect(page.getByText('Founded', { exact: true })).toBeVisible();
});

test('shows the five team members with only the links each one has', async ({ page }) => {
  await page.goto(PATHS.about);
  const cards = page.getByRole('region', { name: 'Meet Our Team' }).locator('ul').first().locator(':scope > li');
  await expect(cards).toHaveCount(5);
  for (const [i, m] of team.entries()) {
    const card = cards.nth(i);
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(m.name);
    await expect(card).toContainText(m.position);
    await expect(card.getByRole('img', { name: `Portrait of ${m.name}` })).toBeVisible();
    for (const [key, label] of [['website', 'Website'], ['linkedin', 'LinkedIn'], ['twitter', 'Twitter'], ['whatsapp', 'WhatsApp']] as const) {
      const link = card.getByRole('link', { name: `${m.name} on ${label}` });
      if (m[key]) await expect(link).toHaveAttribute('href', m[key]!);
      else await expect(link).toHaveCount(0);
    }
  }
  // The US business development lead has no public links at all.
  await expect(cards.nth(4).getByRole('link')).toHaveCount(0);
});
