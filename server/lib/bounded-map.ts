// Answers kept in memory under keys a visitor chooses (paths, query strings) must stay bounded however
// many distinct keys arrive: a count alone is not a bound when each key may be as long as the request
// line allows (16 KB), so entries are also counted in bytes (decision 182).

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
 * (insertion order). A value larger than the whole budget is not kept.
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(private readonly options: BoundedMapOptions<V>) {}

  get size() {
    return this.entries.size;
  }

  /** The bytes held, as counted for the bound. */
  get bytes() {
    return this.used;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps the value (dropping the oldest entries to make room); answers whether it was kept. */
  set(key: string, value: V): boolean {
    this.delete(key);
    const bytes = key.length * 2 + (this.options.sizeOf?.(value) ?? 0) + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.options.maxBytes || this.options.maxEntries < 1) return false;
    while (this.entries.size >= this.options.maxEntries || this.used + bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    return true;
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.used -= entry.bytes;
    return true;
  }

  clear() {
    this.entries.clear();
    this.used = 0;
  }
}
