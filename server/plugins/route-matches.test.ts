import type { RouteConfigEntry } from '@react-router/dev/routes';
import type { ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import routeConfig from '../../app/routes.ts';
import { ROUTE_MATCH_CACHE_MAX, ROUTE_MATCH_CACHE_MAX_BYTES, catchAllMatcher, routeTree } from './web.ts';

// The route table of the real app (app/routes.ts) laid out as a server build holds it: flat, by id,
// under the root route, as the web plugin reads it.
function buildRoutes(): ServerBuild['routes'] {
  const routes: Record<string, { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }> = {
    root: { id: 'root', path: '' },
  };
  const add = (entries: RouteConfigEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[^.]+$/, '');
      routes[id] = { id, parentId, path: entry.path, index: entry.index, caseSensitive: entry.caseSensitive };
      if (entry.children) add(entry.children, id);
    }
  };
  add(routeConfig, 'root');
  return routes as unknown as ServerBuild['routes'];
}

describe('the not-found route matches kept per path', () => {
  const routes = buildRoutes();
  const catchAllId = Object.values(routes).find((r) => r?.path === '*')!.id;

  it('answers like the route table for known and unknown paths', () => {
    const matcher = catchAllMatcher(routeTree({ routes } as ServerBuild), catchAllId);
    for (const known of ['/', '/about', '/articles', '/articles/some-post', '/secured/v1/admin/blog-management/abc/edit', '/sitemap.xml']) {
      expect(matcher.onlyCatchAll(known)).toBe(false);
    }
    for (const unknown of ['/nope', '/about/more', '/secured/v2', '/articles/a/b']) expect(matcher.onlyCatchAll(unknown)).toBe(true);
    // Kept answers are the same answers.
    expect(matcher.onlyCatchAll('/about')).toBe(false);
    expect(matcher.onlyCatchAll('/nope')).toBe(true);
  });

  it('does not grow past its limits however many distinct unknown paths are asked for', () => {
    const matcher = catchAllMatcher(routeTree({ routes } as ServerBuild), catchAllId);
    for (let i = 0; i < 10_000; i++) {
      expect(matcher.onlyCatchAll(`/probe-${i}`)).toBe(true);
      expect(matcher.kept.size).toBeLessThanOrEqual(ROUTE_MATCH_CACHE_MAX);
    }
    expect(matcher.kept.size).toBe(ROUTE_MATCH_CACHE_MAX);
    // Paths as long as a request line allows: the byte bound holds where a count alone would not.
    for (let i = 0; i < 300; i++) {
      expect(matcher.onlyCatchAll(`/${'x'.repeat(8_000)}/${i}`)).toBe(true);
      expect(matcher.kept.bytes).toBeLessThanOrEqual(ROUTE_MATCH_CACHE_MAX_BYTES);
    }
    expect(matcher.kept.size).toBeLessThan(ROUTE_MATCH_CACHE_MAX);
  }, 90_000);
});
