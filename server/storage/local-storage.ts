import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { assertSafeKey, type FileStorage } from './storage.ts';

/** Files on the local disk under one root folder. Writes go to a temporary name first, then rename. */
export function createLocalStorage(root: string): FileStorage {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(base, ...key.split('/'));
  };
  const storage: FileStorage = {
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temp, { flags: 'wx' }));
        await rename(temp, file);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return { size: (await stat(file)).size };
    },
    async sweepPartials(olderThan) {
      let removed = 0;
      let entries;
      try {
        entries = await readdir(base, { recursive: true, withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw err;
      }
      for (const entry of entries) {
        if (!entry.isFile() || !/\.[0-9a-f]{12}\.part$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        // A write still under way keeps touching its file; only ones left alone long enough go.
        const info = await stat(file).catch(() => null);
        if (!info || info.mtime >= olderThan) continue;
        await rm(file, { force: true });
        removed++;
      }
      return removed;
    },
    async *list() {
      let entries;
      try {
        entries = await readdir(base, { recursive: true, withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const entry of entries) {
        if (!entry.isFile() || entry.name.endsWith('.part')) continue;
        yield path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      }
    },
    async *listOlderThan(olderThan) {
      for await (const key of storage.list!()) {
        const info = await stat(fileOf(key)).catch(() => null);
        if (info && info.mtime < olderThan) yield key;
      }
    },
    async get(key, range) {
      const file = fileOf(key);
      await stat(file); // throws ENOENT before a stream is handed out
      return createReadStream(file, range ? { start: range.start, end: range.end } : undefined);
    },
    async stat(key) {
      try {
        return { size: (await stat(fileOf(key))).size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
  return storage;
}
