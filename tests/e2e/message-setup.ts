import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { createUserViaApi, expect, signInAs, type E2EAccount } from './fixtures.ts';

/** A staff member (signed in on `page`), a client, and one project of that client. */
export interface ThreadSetup {
  admin: E2EAccount;
  client: E2EAccount;
  project: { _id: string; name: string };
}

/** Makes a ThreadSetup through the API; `tag` keeps names and the project code unique per test. */
export async function setUpThread(page: Page, tag: string): Promise<ThreadSetup> {
  const stamp = `${tag}-${Date.now().toString(36)}`;
  const admin = await signInAs(page, { role: 'admin', name: `Ngozi Staff ${stamp}` });
  const client = await createUserViaApi(page.request, { role: 'client', name: `Amaka Client ${stamp}` });
  const res = await page.request.post('/api/projects', {
    data: { name: `Jetty repair ${stamp}`, code: `JR-${stamp}`.toUpperCase(), clientId: client._id },
    headers: { origin: E2E_BASE_URL },
  });
  expect(res.status()).toBe(201);
  return { admin, client, project: (await res.json()).project };
}

/** The thread's project opened on the staff dashboard. */
export const adminThreadUrl = (s: ThreadSetup) => `${PATHS.adminDashboard}?client=${s.client._id}&project=${s.project._id}`;
/** The thread's project opened on the client's dashboard. */
export const clientThreadUrl = (s: ThreadSetup) => `${PATHS.clientDashboard}?project=${s.project._id}`;
