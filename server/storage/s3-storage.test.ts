import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createStorage } from './create-storage.ts';
import { AwsV4Signer } from 'aws4fetch';
import { createS3Storage } from './s3-storage.ts';
import { startFakeS3Server, type FakeS3Server } from '../../tests/helpers/fake-s3-server.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../tests/helpers/test-app.ts';
import { multipartBody } from '../../tests/helpers/multipart.ts';
import { sampleMp4 } from '../../tests/helpers/sample-files.ts';
import { projects } from '../db/schema/projects.ts';
import { expectReadStatAndDelete } from '../../tests/helpers/storage-checks.ts';

let s3: FakeS3Server;

beforeAll(async () => {
  s3 = await startFakeS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const storageFor = (server: FakeS3Server, extra: { secretAccessKey?: string; partSizeBytes?: number } = {}) =>
  createS3Storage({
    endpoint: server.endpoint,
    bucket: server.bucket,
    region: server.region,
    accessKeyId: server.accessKeyId,
    secretAccessKey: extra.secretAccessKey ?? server.secretAccessKey,
    partSizeBytes: extra.partSizeBytes,
  });

async function* chunksOf(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe('Signature Version 4 (aws4fetch)', () => {
  it("signs a request exactly as AWS's documented GET Object example", async () => {
    const signer = new AwsV4Signer({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      headers: {
        range: 'bytes=0-9',
        'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      },
      service: 's3',
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      datetime: '20130524T000000Z',
      // AWS's example signs Range, which aws4fetch leaves unsigned unless told to sign every header.
      allHeaders: true,
    });
    const { headers } = await signer.sign();
    expect(headers.get('authorization')).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});

describe('S3 storage against a local S3-compatible server', () => {
  it('stores, reads whole and by range, stats and deletes an object', async () => {
    const storage = storageFor(s3);
    await storage.put('messages/ab/one', Buffer.from('hello, object storage'), { contentType: 'text/plain' });
    expect(s3.objects.get('messages/ab/one')?.body.toString()).toBe('hello, object storage');
    await expectReadStatAndDelete(storage);
    expect(s3.log.some((l) => l.startsWith('HEAD /portal-test/messages/ab/one'))).toBe(true);
  });

  it('is refused by the server when the secret is wrong', async () => {
    const storage = storageFor(s3, { secretAccessKey: 'not-the-secret' });
    await expect(storage.put('messages/ab/two', Buffer.from('x'))).rejects.toThrow(/403 SignatureDoesNotMatch/);
    expect(s3.objects.has('messages/ab/two')).toBe(false);
  });

  it('uploads a stream in parts and puts them back together in order', async () => {
    const storage = storageFor(s3, { partSizeBytes: 64 * 1024 });
    const data = sampleMp4(300_000);
    const { size } = await storage.put('messages/cd/big', Readable.from(chunksOf(data, 10_000)));
    expect(size).toBe(data.length);
    expect(s3.objects.get('messages/cd/big')?.body.equals(data)).toBe(true);
    expect(s3.log.filter((l) => l.includes('partNumber=')).length).toBe(5);
    expect(s3.openUploads()).toBe(0);
  });

  it('aborts the multipart upload when the stream fails, leaving no object and no open upload', async () => {
    const storage = storageFor(s3, { partSizeBytes: 64 * 1024 });
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(100_000, 1);
        yield Buffer.alloc(100_000, 2);
        throw new Error('client went away');
      })(),
    );
    await expect(storage.put('messages/cd/broken', failing)).rejects.toThrow('client went away');
    expect(s3.objects.has('messages/cd/broken')).toBe(false);
    expect(s3.openUploads()).toBe(0);
    // More failures than the client's retries of a 5xx answer.
    s3.failNextParts(3);
    await expect(storage.put('messages/cd/broken', Readable.from(chunksOf(Buffer.alloc(200_000, 3), 50_000)))).rejects.toThrow(/500/);
    expect(s3.objects.has('messages/cd/broken')).toBe(false);
    expect(s3.openUploads()).toBe(0);
  });

  it('is what STORAGE_DRIVER=s3 selects, and names what is missing', () => {
    expect(() => createStorage(loadConfig({ NODE_ENV: 'test', STORAGE_DRIVER: 's3', S3_BUCKET: 'b' }))).toThrow(
      'STORAGE_DRIVER=s3 needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
  });
});

describe('message attachments on S3 storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uploads, refuses and serves attachments exactly as on local disk', async () => {
    const user = await createUser(t, { role: 'client' });
    const { cookie } = await signIn(t, user, 'client');
    await t.database.db.insert(projects).values({ clientId: user.id, name: 'S3 project', code: 'S3-1' });
    const headersOf = (h: Record<string, string>) => ({ ...h, cookie, origin: 'http://localhost:3000' });
    const before = s3.objects.size;
    const data = sampleMp4(12 * 1024 * 1024);
    const good = multipartBody({}, { filename: 'walk.mp4', contentType: 'video/mp4', data });
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: headersOf(good.headers), payload: good.payload });
    expect(res.statusCode).toBe(201);
    const file = res.json().file;
    expect(s3.objects.get(`messages/${file.publicId.slice(0, 2)}/${file.publicId}`)?.body.equals(data)).toBe(true);
    const part = await t.app.inject({ method: 'GET', url: file.url, headers: { cookie, range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(data.subarray(100, 200))).toBe(true);
    const bad = multipartBody({}, { filename: 'walk.mp4', contentType: 'video/mp4', data: Buffer.from('not a video at all') });
    const refused = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: headersOf(bad.headers), payload: bad.payload });
    expect(refused.statusCode).toBe(415);
    expect(s3.objects.size).toBe(before + 1);
    expect(s3.openUploads()).toBe(0);
  });
});
