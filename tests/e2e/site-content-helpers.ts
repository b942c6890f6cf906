import type { Page } from '@playwright/test';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';
import { expect } from './fixtures.ts';
import { api } from './portal-helpers.ts';

/**
 * Publishes the starting company profile again (as the signed-in editor of `page`), so the specs
 * after this one see the site as seeded: since decision 289 the shared server's pages follow what
 * a spec publishes.
 */
export async function publishSeedCompany(page: Page) {
  const current = await api<{ draft: { version: number } }>(page, 'GET', '/site-content/sections/company');
  const saved = await api<{ draft: { version: number } }>(page, 'PUT', '/site-content/sections/company/draft', { version: current.body.draft.version, document: SECTION_SEEDS.company });
  expect(saved.status).toBe(200);
  const published = await api(page, 'POST', '/site-content/sections/company/publish', { version: saved.body.draft.version });
  expect([200, 409]).toContain(published.status);
}
