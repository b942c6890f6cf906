import { expect, test } from './fixtures.ts';
import { certificates } from '../../common/content/certificates.ts';
import { PATHS } from '../../common/paths.ts';

test('shows three certified 2024 certificates and regulatory compliance', async ({ page }) => {
  await page.goto(PATHS.certifications);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certifications & Licenses');
  const cards = page.getByRole('region', { name: 'Certificates' }).getByRole('listitem');
  await expect(cards).toHaveCount(3);
  await expect(cards.getByRole('heading', { level: 2 })).toHaveText(['Occupational Health & Safety Management', 'Environmental Management', 'Quality Management']);
  for (const [i, c] of certificates.entries()) {
    const card = cards.nth(i);
    await expect(card.getByText('Certified', { exact: true })).toBeVisible();
    await expect(card.getByText('2024', { exact: true })).toBeVisible();
    await expect(card).toContainText(c.issuer);
    await expect(card.getByRole('img', { name: `${c.title} certificate` })).toBeVisible();
  }
  const compliance = page.getByRole('region', { name: 'Regulatory Compliance' });
  await expect(compliance.getByRole('heading', { level: 3 })).toHaveText(['Quality Assured', 'Fully Licensed', 'Current & Valid']);
  await expect(compliance).toContainText('ISO certified quality management systems');
  await expect(compliance).toContainText('All required permits and regulatory approvals');
  await expect(compliance).toContainText('Regularly renewed certifications');
});
