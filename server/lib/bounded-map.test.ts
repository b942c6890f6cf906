import { describe, expect, it } from 'vitest';
import { BoundedMap, ENTRY_OVERHEAD_BYTES } from './bounded-map.ts';
import { PAGE_CACHE_MAX_BYTES, PAGE_CACHE_MAX_ENTRIES, PageCache } from './page-cache.ts';

describe('BoundedMap', () => {
  it('keeps at most its entries, dropping the oldest, and answers what it kept', () => {
    const map = new BoundedMap<number>({ maxEntries: 3, maxBytes: 1_000_000 });
    for (let i = 0; i < 10_000; i++) map.set(`/k${i}`, i);
    expect(map.size).toBe(3);
    expect(map.get('/k9999')).toBe(9999);
    expect(map.get('/k9997')).toBe(9997);
    expect(map.get('/k9996')).toBeUndefined();
    expect(map.bytes).toBe(3 * ENTRY_OVERHEAD_BYTES + 2 * (6 + 6 + 6));
  });

  it('keeps at most its bytes, however long the keys and values are', () => {
    const map = new BoundedMap<Buffer>({ maxEntries: 1000, maxBytes: 100_000, sizeOf: (b) => b.length });
    for (let i = 0; i < 2000; i++) {
      map.set(`/${'x'.repeat(i % 8000)}/${i}`, Buffer.alloc(i % 3000));
      expect(map.bytes).toBeLessThanOrEqual(100_000);
    }
    expect(map.size).toBeGreaterThan(0);
    // A value bigger than the whole budget is not kept and drops nothing.
    const before = map.size;
    expect(map.set('/huge', Buffer.alloc(200_000))).toBe(false);
    expect(map.get('/huge')).toBeUndefined();
    expect(map.size).toBe(before);
  });

  it('counts a replaced key once, and gives its bytes back on delete and clear', () => {
    const map = new BoundedMap<Buffer>({ maxEntries: 10, maxBytes: 10_000, sizeOf: (b) => b.length });
    map.set('/a', Buffer.alloc(100));
    map.set('/a', Buffer.alloc(300));
    expect(map.size).toBe(1);
    expect(map.bytes).toBe(300 + 4 + ENTRY_OVERHEAD_BYTES);
    expect(map.delete('/a')).toBe(true);
    expect(map.bytes).toBe(0);
    map.set('/b', Buffer.alloc(10));
    map.clear();
    expect(map.size).toBe(0);
    expect(map.bytes).toBe(0);
  });
  // The cost of adding a key when full is measured by `npm run bench` (bench/libraries.ts,
  // decision 238), not here: tests never assert on timings.
});

describe('the rendered-page cache under visitor-chosen query strings', () => {
  it('stays within its byte budget when every page is large', () => {
    const cache = new PageCache();
    const until = new Date('2026-11-24T10:00:00Z');
    const now = new Date('2026-11-24T09:00:00Z');
    // 40 distinct query strings, each a 1 MB page (it compresses well, so the page itself is what counts).
    for (let i = 0; i < 40; i++) {
      cache.set(`/articles?junk=${i}`, { status: 200, html: `<p>${'x'.repeat(1024 * 1024)}${i}</p>`, until });
      expect(cache.bytes).toBeLessThanOrEqual(PAGE_CACHE_MAX_BYTES);
    }
    expect(cache.size).toBeLessThan(PAGE_CACHE_MAX_ENTRIES);
    expect(cache.get('/articles?junk=39', now)).toBeDefined();
    expect(cache.get('/articles?junk=0', now)).toBeUndefined();
  });
});
