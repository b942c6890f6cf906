import { describe, expect, it } from 'vitest';
import { isContentPagePath, PATHS } from './paths.ts';

describe('isContentPagePath', () => {
  it('names the public content pages and an article, with or without a trailing slash', () => {
    for (const p of [PATHS.home, PATHS.about, `${PATHS.about}/`, PATHS.certifications, PATHS.articles, PATHS.article('a-post'), `${PATHS.article('a-post')}/`]) {
      expect(isContentPagePath(p), p).toBe(true);
    }
  });

  it('leaves out the pages with forms, the signed-in areas, the API and deeper article paths', () => {
    for (const p of [PATHS.contact, PATHS.vendorRegistration, PATHS.clientLogin, PATHS.adminDashboard, '/api/health', '/articles/rss.xml/x', '/aboutx', '/assets/entry.js']) {
      expect(isContentPagePath(p), p).toBe(false);
    }
  });
});
