import { text } from 'node:stream/consumers';
import { expect } from 'vitest';
import type { FileStorage } from '../../server/storage/storage.ts';

/**
 * After `put('messages/ab/one', 'hello, object storage')`: what every storage driver must then do
 * with the object, read whole and by range, stat, delete, and find it gone.
 */
export async function expectReadStatAndDelete(storage: FileStorage) {
  expect(await text(await storage.get('messages/ab/one'))).toBe('hello, object storage');
  expect(await text(await storage.get('messages/ab/one', { start: 7, end: 12 }))).toBe('object');
  expect(await storage.stat('messages/ab/one')).toEqual({ size: 21 });
  await storage.delete('messages/ab/one');
  expect(await storage.stat('messages/ab/one')).toBeNull();
  await expect(storage.get('messages/ab/one')).rejects.toMatchObject({ code: 'ENOENT' });
}
