import type { Browser, Locator, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { samplePdf } from '../helpers/sample-files.ts';
import { PHONE, createUserViaApi, expect, signInAs, type E2EAccount } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// Steps shared by the issue 25 browser stories (documents, approvals, change orders and their
// combined story, project-decisions.spec.ts): the same clicks in one place.

/** A short unique suffix for names, so stories never meet each other's records. */
export const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
export const LIVE = { timeout: 5_000 };

/** Signs staff in on `page`, creates a client account and a project of it, and opens the project on the admin dashboard. */
export async function staffWithClientProject(
  page: Page,
  names: { staff: string; client: string },
  project: { name: string; code: string; budget?: string; startDate?: string; endDate?: string },
): Promise<{ account: E2EAccount; project: { _id: string; name: string; code: string } }> {
  await signInAs(page, { role: 'admin', name: names.staff });
  const account = await createUserViaApi(page.request, { role: 'client', name: names.client });
  const created = await api<{ project: { _id: string; name: string; code: string } }>(page, 'POST', '/projects', { ...project, clientId: account._id });
  expect(created.status).toBe(201);
  return { account, project: created.body.project };
}

export const openStaffProject = (page: Page, clientId: string, projectId: string) => page.goto(`${PATHS.adminDashboard}?client=${clientId}&project=${projectId}`);

/** The client signed in, in a browser context of its own at phone width, on the project (or its dashboard). */
export async function clientOnPhone(browser: Browser, account: E2EAccount, projectId?: string): Promise<{ context: Awaited<ReturnType<Browser['newContext']>>; client: Page }> {
  const context = await browser.newContext({ viewport: PHONE, baseURL: E2E_BASE_URL });
  const client = await context.newPage();
  await signInAs(client, { role: 'client', account });
  await client.goto(projectId ? `${PATHS.clientDashboard}?project=${projectId}` : PATHS.clientDashboard);
  return { context, client };
}

/** Staff upload the first version of a document from the register's dialog. */
export async function uploadDocument(
  page: Page,
  register: Locator,
  doc: { title: string; category: string; label?: string; fileName: string; showToClient?: boolean },
): Promise<Locator> {
  await register.getByRole('button', { name: 'Upload document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill(doc.title);
  await dialog.getByLabel('Category').selectOption(doc.category);
  if (doc.label) await dialog.getByLabel('Version label').fill(doc.label);
  if (doc.showToClient) await dialog.getByLabel('Show to the client').check();
  await dialog.locator('input[type=file]').setInputFiles({ name: doc.fileName, mimeType: 'application/pdf', buffer: samplePdf(`${doc.title} ${doc.label ?? ''}`) });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();
  return register.getByRole('article', { name: new RegExp(doc.title) });
}

/** Staff upload a new version of a document; it becomes current and the one before is superseded. */
export async function uploadNewVersion(page: Page, register: Locator, title: string, label: string, fileName: string) {
  const card = register.getByRole('article', { name: new RegExp(title) });
  await card.getByRole('button', { name: `Upload a new version of ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: `New version of ${title}` });
  await dialog.getByLabel('Version label').fill(label);
  await dialog.locator('input[type=file]').setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: samplePdf(`${title} ${label}`) });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(`Current: ${label}`);
}

/** Staff ask the client to approve what the option names (a document version, report or milestone). */
export async function askForApproval(page: Page, approvals: Locator, option: string, note: string) {
  await approvals.getByRole('button', { name: 'Ask for approval' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ask for approval' });
  await dialog.getByLabel('What to approve').selectOption({ label: option });
  await dialog.getByLabel('Due date').fill(inDays(7));
  await dialog.getByLabel('Note to the client').fill(note);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();
}

/** Staff draft a change order in the project's change order panel; answers its card. */
export async function draftChangeOrder(panel: Locator, co: { title: string; description: string; cost: string; scheduleDays: string }, reference = 'CO-001'): Promise<Locator> {
  await panel.getByText('New change order').click();
  const form = panel.getByRole('form', { name: 'New change order' });
  await form.getByLabel('Title').fill(co.title);
  await form.getByLabel('What changes').fill(co.description);
  await form.getByLabel(/Cost impact/).fill(co.cost);
  await form.getByLabel('Schedule impact (days)').fill(co.scheduleDays);
  await form.getByRole('button', { name: 'Save draft' }).click();
  const card = panel.getByRole('article', { name: `${reference}: ${co.title}` });
  await expect(card).toContainText('Draft');
  return card;
}
