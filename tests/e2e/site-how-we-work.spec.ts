import { expect, test } from './fixtures.ts';
import { processSteps } from '../../common/content/process.ts';
import { PATHS } from '../../common/paths.ts';

test('explains the five numbered steps, why the process works and how to start', async ({ page }) => {
  await page.goto(PATHS.howWeWork);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How We Work');
  await expect(page.getByText('Our proven methodology delivers exceptional results through a transparent, step-by-step approach.')).toBeVisible();

  const steps = page.getByRole('list').filter({ has: page.getByText('Intent Declaration') }).getByRole('listitem');
  await expect(steps).toHaveCount(5);
  await expect(steps.getByRole('heading', { level: 3 })).toHaveText([
    'Intent Declaration',
    'Review of Tender',
    'Feedback',
    'Contract Execution',
    'Making Payments (in milestones)',
  ]);
  for (const [i, s] of processSteps.entries()) {
    await expect(steps.nth(i)).toContainText(`Step ${i + 1}`);
    await expect(steps.nth(i)).toContainText(s.description);
  }

  const why = page.getByRole('region', { name: 'Why Our Process Works' });
  await expect(why.getByRole('heading', { level: 3 })).toHaveText(['Clear Objectives', 'Transparent Pricing', 'Efficient Execution', 'Milestone Payments']);
  await expect(why).toContainText('Detailed technical and commercial proposals with no hidden costs.');
  await expect(why).toContainText('Flexible payment terms aligned to milestones');

  await expect(page.getByRole('heading', { name: 'Ready to Experience Our Process?' })).toBeVisible();
  await page.getByRole('link', { name: 'Start Your Project' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});
