import type { Readable } from 'node:stream';

/** Where uploaded files live. Code outside server/storage/ uses only this interface, never paths. */
export interface FileStorage {
  /** Stores the stream under key; rejects (and leaves nothing behind) if the stream fails. */
  put(key: string, body: Readable | Buffer, options?: { contentType?: string }): Promise<{ size: number }>;
  /** Reads the file, or the inclusive byte range of it. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /**
   * Removes temporary files of writes that never finished (a process killed mid-upload) and were
   * last written before `olderThan`; answers how many. Local storage only: an S3 bucket drops
   * incomplete multipart uploads by its lifecycle rule (AbortIncompleteMultipartUpload).
   */
  sweepPartials?(olderThan: Date): Promise<number>;
  /** Every stored key, in no particular order (backups, decision 165); writes still under way are left out. */
  list?(): AsyncIterable<string>;
  /** The stored keys last written before `olderThan` (the sweep of files no row names, decision 249); writes under way are left out. */
  listOlderThan?(olderThan: Date): AsyncIterable<string>;
}

const KEY = /^[a-z0-9][a-z0-9/_.-]{0,200}$/;

/** Keys are server-generated; anything else (path characters, `..`) is refused. */
export function assertSafeKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.includes('//')) throw new Error(`Unsafe storage key: ${key}`);
}
