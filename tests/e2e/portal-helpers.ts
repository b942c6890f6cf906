import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';

// Cookie-carrying writes must come from our own origin (the CSRF check); the browser adds it, API calls say it.
const ORIGIN = { origin: E2E_BASE_URL };

export interface TestAccount {
  _id: string;
  name: string;
  email: string;
  username: string | null;
  password: string;
}

/**
 * An account made by the test-only hook (E2E_TEST_HOOKS=1). ==> Swap for the accounts engineer's
 * createUserViaApi in tests/e2e/fixtures.ts once it exists.
 */
export async function createAccount(request: APIRequestContext, role: 'admin' | 'client', name?: string): Promise<TestAccount> {
  const res = await request.post('/api/test/users', { data: { role, name }, headers: ORIGIN });
  if (res.status() !== 201) throw new Error(`test user not created: ${res.status()} ${await res.text()}`);
  const body = await res.json();
  return { ...body.user, password: body.password };
}

/** Signs the page's browser context in through the API (the session cookie lands in the context). */
export async function signInAs(page: Page, account: TestAccount, role: 'admin' | 'client') {
  const res =
    role === 'admin'
      ? await page.request.post('/api/auth/adminlogin', { data: { email: account.email, password: account.password }, headers: ORIGIN })
      : await page.request.post('/api/auth/login', { data: { username: account.username, password: account.password }, headers: ORIGIN });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

/** A JSON call with the page's session, as the browser would make it. */
export async function api<T = unknown>(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<{ status: number; body: T }> {
  const res = await page.request.fetch(`/api${path}`, { method, data, headers: ORIGIN });
  return { status: res.status(), body: (await res.json().catch(() => null)) as T };
}

/** A real image for uploads. */
export async function testImage(format: 'jpeg' | 'png' | 'webp', color: string, size = { width: 640, height: 480 }): Promise<Buffer> {
  return sharp({ create: { width: size.width, height: size.height, channels: 3, background: color } })
    [format]()
    .toBuffer();
}

export { ORIGIN };
