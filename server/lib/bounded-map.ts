import { LRUCache } from 'lru-cache';

// Answers kept in memory under keys a visitor chooses (paths, query strings) must stay bounded however
// many distinct keys arrive: a count alone is not a bound when each key may be as long as the request
// line allows (16 KB), so entries are also counted in bytes (decision 182). The bookkeeping is
// lru-cache's: a Map dropping its oldest key through keys().next() walks the holes earlier deletes
// left, about 20 times slower once full (decision 238).

/** A rough fixed cost per entry beyond its key and value: the map slot, the record, the boxed numbers. */
export const ENTRY_OVERHEAD_BYTES = 64;

export interface BoundedMapOptions<V> {
  /** At most this many entries. */
  maxEntries: number;
  /** At most this many bytes: keys (two bytes a character, the worst case) plus `sizeOf` of each value. */
  maxBytes: number;
  /** The bytes a value holds (buffers, strings); nothing when left out (small values such as booleans). */
  sizeOf?: (value: V) => number;
}

/**
 * A Map that keeps at most `maxEntries` entries and `maxBytes` bytes, dropping the oldest first
 * (insertion order: reads go through peek(), which leaves the order alone). A value larger than the
 * whole budget is not kept.
 */
export class BoundedMap<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, V> | undefined;

  constructor(options: BoundedMapOptions<V>) {
    // lru-cache refuses a bound below one: such a map keeps nothing.
    if (options.maxEntries < 1 || options.maxBytes < 1) return;
    this.entries = new LRUCache<string, V>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (value, key) => key.length * 2 + (options.sizeOf?.(value) ?? 0) + ENTRY_OVERHEAD_BYTES,
    });
  }

  get size() {
    return this.entries?.size ?? 0;
  }

  /** The bytes held, as counted for the bound. */
  get bytes() {
    return this.entries?.calculatedSize ?? 0;
  }

  get(key: string): V | undefined {
    return this.entries?.peek(key);
  }

  /** Keeps the value (dropping the oldest entries to make room); answers whether it was kept. */
  set(key: string, value: V): boolean {
    if (!this.entries) return false;
    // A value over the whole budget is refused, and the key's earlier value goes with it.
    this.entries.set(key, value);
    return this.entries.has(key);
  }

  delete(key: string): boolean {
    return this.entries?.delete(key) ?? false;
  }

  clear() {
    this.entries?.clear();
  }
}
