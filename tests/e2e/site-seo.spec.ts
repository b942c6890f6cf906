import { expect, test } from './fixtures.ts';
import { company } from '../../common/content/company.ts';
import { PATHS } from '../../common/paths.ts';

const PAGES = [PATHS.home, PATHS.services, PATHS.about, PATHS.howWeWork, PATHS.projects, PATHS.equipments, PATHS.gallery, PATHS.certifications];

test('each content page has its own title, description, canonical URL and social tags', async ({ page, request }) => {
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  for (const path of PAGES) {
    await page.goto(path);
    const title = await page.title();
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    titles.add(title);
    descriptions.add(description!);
    const url = new URL(path, company.siteUrl).toString();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', url);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', url);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', description!);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(page.locator('meta[name="twitter:title"]')).toHaveAttribute('content', title);
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    // The social image is served at the path it names.
    const res = await request.get(new URL(image!).pathname);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('image/png');
  }
  expect(titles.size).toBe(PAGES.length);
  expect(descriptions.size).toBe(PAGES.length);
});

test('the home page describes the organisation and its offices as JSON-LD', async ({ page }) => {
  await page.goto(PATHS.home);
  const json = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(json['@type']).toBe('Organization');
  expect(json.name).toBe(company.name);
  expect(json.foundingDate).toBe('2011');
  expect(json.location.map((l: { name: string }) => l.name)).toEqual(['Head Office', 'United States Office', 'Equipment Yard']);
  expect(json.location[1].address.addressCountry).toBe('US');
});

test('robots.txt keeps the portal and admin out and names the sitemap, which lists the public pages', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /s/');
  expect(robots).toContain('Disallow: /secured/');
  expect(robots).toMatch(/Sitemap: .*\/sitemap\.xml/);
  const res = await request.get('/sitemap.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/xml');
  const xml = await res.text();
  for (const path of PAGES) expect(xml).toContain(`<loc>${new URL(path, company.siteUrl).toString()}</loc>`);
  expect(xml).not.toContain('/secured/');
  expect(xml).not.toContain('/s/');
});

test('the favicon and web manifest are served', async ({ page, request }) => {
  await page.goto(PATHS.home);
  for (const rel of ['icon', 'manifest']) {
    const href = await page.locator(`link[rel="${rel}"]`).getAttribute('href');
    expect((await request.get(href!)).status()).toBe(200);
  }
});
