import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';

// Cookie-carrying writes must come from our own origin (the CSRF check); the browser adds it, API calls say it.
const ORIGIN = { origin: E2E_BASE_URL };

/** A JSON call with the page's session, as the browser would make it. */
export async function api<T = unknown>(page: Page, method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, data?: unknown): Promise<{ status: number; body: T }> {
  const res = await page.request.fetch(`/api${path}`, { method, data, headers: ORIGIN });
  return { status: res.status(), body: (await res.json().catch(() => null)) as T };
}

/** A real image for uploads. */
export async function testImage(format: 'jpeg' | 'png' | 'webp', color: string, size = { width: 640, height: 480 }): Promise<Buffer> {
  const image = sharp({ create: { width: size.width, height: size.height, channels: 3, background: color } });
  return image[format]().toBuffer();
}

export { ORIGIN };
