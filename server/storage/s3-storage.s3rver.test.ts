import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/helpers/free-port.ts';
import { createS3Storage, type S3Settings } from './s3-storage.ts';
import { expectReadStatAndDelete } from '../../tests/helpers/storage-checks.ts';

// The storage driver against s3rver, an S3 implementation written by other people, so a protocol
// mistake shared by our driver and our own fake S3 server (tests/helpers/fake-s3-server.ts) cannot
// pass unnoticed: paths and prefixes, ranges, multipart create/part/complete/abort, its XML. s3rver
// checks the access key but not Signature Version 4 itself; signatures are proven by AWS's
// documented example (s3-storage.test.ts) and by the fake server, which recomputes every one.

const BUCKET = 'portal-independent';
let server: S3rver;
let dir: string;
let endpoint: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'portal-s3rver-'));
  const port = await freePort();
  server = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true, vhostBuckets: false, configureBuckets: [{ name: BUCKET, configs: [] }] });
  await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// s3rver's built-in account.
const storageWith = (extra: Partial<S3Settings> = {}) =>
  createS3Storage({ endpoint, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', ...extra });

async function* chunksOf(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe('S3 storage against s3rver (an independent S3 implementation)', () => {
  it('stores, reads whole and by range, stats and deletes an object', async () => {
    const storage = storageWith({ prefix: 'uploads' });
    await storage.put('messages/ab/one', Buffer.from('hello, object storage'), { contentType: 'text/plain' });
    await expectReadStatAndDelete(storage);
    // Deleting what is already gone is not an error (a retried cleanup).
    await expect(storage.delete('messages/ab/one')).resolves.toBeUndefined();
  });

  it('keeps objects under their prefix', async () => {
    await storageWith({ prefix: 'tenant-a' }).put('reports/x/one', Buffer.from('a'));
    expect(await storageWith({ prefix: 'tenant-b' }).stat('reports/x/one')).toBeNull();
    expect(await storageWith({ prefix: 'tenant-a' }).stat('reports/x/one')).toEqual({ size: 1 });
  });

  it('is refused for an unknown access key, and stores nothing', async () => {
    await expect(storageWith({ accessKeyId: 'NOT-A-KEY' }).put('messages/ab/two', Buffer.from('x'))).rejects.toThrow(/403 InvalidAccessKeyId/);
    expect(await storageWith().stat('messages/ab/two')).toBeNull();
  });

  it('uploads a 12 MiB stream in 5 MiB parts and reads back the same bytes', async () => {
    const data = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE(i, i);
    const storage = storageWith({ partSizeBytes: 5 * 1024 * 1024 });
    const { size } = await storage.put('messages/cd/big', Readable.from(chunksOf(data, 64 * 1024)), { contentType: 'application/octet-stream' });
    expect(size).toBe(data.length);
    expect((await buffer(await storage.get('messages/cd/big'))).equals(data)).toBe(true);
    const tail = await buffer(await storage.get('messages/cd/big', { start: data.length - 10, end: data.length - 1 }));
    expect(tail.equals(data.subarray(data.length - 10))).toBe(true);
  });

  it('leaves no object when the stream fails half-way through a multipart upload', async () => {
    const storage = storageWith({ partSizeBytes: 5 * 1024 * 1024 });
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(6 * 1024 * 1024, 1);
        yield Buffer.alloc(5 * 1024 * 1024, 2);
        throw new Error('client went away');
      })(),
    );
    await expect(storage.put('messages/cd/broken', failing)).rejects.toThrow('client went away');
    expect(await storage.stat('messages/cd/broken')).toBeNull();
  });
});
