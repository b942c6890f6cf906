import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { assertSafeKey, type FileStorage } from './storage.ts';

export interface S3Settings {
  /** The service's base URL, such as https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (MinIO). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Objects go under this prefix inside the bucket (no leading or trailing slash). */
  prefix?: string;
  /** Size of the parts of a streamed upload (default 8 MiB); S3 wants at least 5 MiB for all but the last. */
  partSizeBytes?: number;
  /** The clock of the signatures (tests pass a fixed one). */
  now?: () => Date;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 120_000;
// aws4fetch retries 5xx and 429 answers with backoff; every body we send is a buffer, so a retry
// resends exactly the same bytes.
const RETRIES = 2;

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const EMPTY_SHA256 = sha256Hex(Buffer.alloc(0));

/** RFC 3986 encoding of a key segment (everything but A-Z a-z 0-9 - _ . ~ is escaped). */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const unescapeXml = (v: string) =>
  v.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-fA-F]+));/g, (all, name: string, dec?: string, hex?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name] ?? all,
  );

/** A failed S3 call; `code` is ENOENT for a missing object, like the local storage's errors. */
class S3Error extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Reads a whole stream into parts of the given size, one at a time (memory holds one part). */
async function* partsOf(body: Readable, size: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(buf);
    length += buf.length;
    while (length >= size) {
      const all = Buffer.concat(chunks);
      yield all.subarray(0, size);
      chunks = [all.subarray(size)];
      length = all.length - size;
    }
  }
  if (length > 0 || chunks.length === 0) yield Buffer.concat(chunks);
}

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, ...), path-style addressing.
 * Streams are uploaded in parts (multipart upload), so a 50 MB attachment never sits in memory
 * whole, and a failed stream aborts its upload so no partial object remains.
 */
export function createS3Storage(settings: S3Settings): FileStorage {
  const base = new URL(settings.endpoint.endsWith('/') ? settings.endpoint : `${settings.endpoint}/`);
  // Real services refuse parts under 5 MiB (but the last); only tests ask for smaller ones.
  const partSize = Math.max(settings.partSizeBytes ?? DEFAULT_PART_SIZE, 1);
  const now = settings.now ?? (() => new Date());
  const prefix = settings.prefix ? `${settings.prefix.replace(/^\/+|\/+$/g, '')}/` : '';

  const urlOf = (key: string, query: Record<string, string> = {}) => {
    assertSafeKey(key);
    const url = new URL(`${encodeRfc3986(settings.bucket)}/${`${prefix}${key}`.split('/').map(encodeRfc3986).join('/')}`, base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  };

  // Requests are signed (Signature Version 4) by aws4fetch; the payload hash is ours, so the
  // service checks the bytes it receives against the signature.
  const aws = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: 's3',
    region: settings.region,
    retries: RETRIES,
  });

  /** ListObjectsV2, a page of up to 1000 keys at a time, under this storage's prefix only, with each key's last write. */
  async function* listObjects(): AsyncIterable<{ key: string; modified: Date | null }> {
    let token: string | undefined;
    do {
      const url = new URL(`${encodeRfc3986(settings.bucket)}`, base);
      url.searchParams.set('list-type', '2');
      if (prefix) url.searchParams.set('prefix', prefix);
      if (token) url.searchParams.set('continuation-token', token);
      const res = await call('GET', url);
      if (!res.ok) throw await failure(res, 'listing');
      const xml = await res.text();
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = unescapeXml(/<Key>([^<]*)<\/Key>/.exec(m[1])?.[1] ?? '');
        const modified = /<LastModified>([^<]*)<\/LastModified>/.exec(m[1])?.[1];
        if (key && key.startsWith(prefix)) yield { key: key.slice(prefix.length), modified: modified ? new Date(modified) : null };
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? unescapeXml(/<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || undefined : undefined;
    } while (token);
  }

  async function call(method: string, url: URL, options: { body?: Buffer; headers?: Record<string, string> } = {}): Promise<Response> {
    const body = options.body;
    const datetime = now().toISOString().replace(/[:-]|\.\d{3}/g, '');
    return aws.fetch(url.toString(), {
      method,
      headers: { ...(options.headers ?? {}), 'x-amz-content-sha256': body ? sha256Hex(body) : EMPTY_SHA256 },
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      aws: { datetime },
    });
  }

  async function failure(res: Response, what: string): Promise<S3Error> {
    const text = await res.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    // The error body may echo the key and request ids; the code and status are enough to act on.
    return new S3Error(`S3 ${what} failed: ${res.status}${code ? ` ${code}` : ''}`, res.status, res.status === 404 ? 'ENOENT' : code);
  }

  async function putObject(key: string, body: Buffer, contentType?: string) {
    const res = await call('PUT', urlOf(key), { body, headers: contentType ? { 'content-type': contentType } : {} });
    if (!res.ok) throw await failure(res, 'upload');
    await res.arrayBuffer();
  }

  async function putMultipart(key: string, first: Buffer, rest: AsyncGenerator<Buffer>, contentType?: string) {
    const created = await call('POST', urlOf(key, { uploads: '' }), { headers: contentType ? { 'content-type': contentType } : {} });
    if (!created.ok) throw await failure(created, 'starting a multipart upload');
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1];
    if (!uploadId) throw new S3Error('S3 gave no upload id', 502);
    const etags: string[] = [];
    let size = 0;
    try {
      let part: Buffer | undefined = first;
      while (part) {
        const res = await call('PUT', urlOf(key, { partNumber: String(etags.length + 1), uploadId }), { body: part });
        if (!res.ok) throw await failure(res, 'uploading a part');
        await res.arrayBuffer();
        const etag = res.headers.get('etag');
        if (!etag) throw new S3Error('S3 gave no ETag for a part', 502);
        etags.push(etag);
        size += part.length;
        const next = await rest.next();
        part = next.done ? undefined : next.value;
      }
      const xml = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
      const done = await call('POST', urlOf(key, { uploadId }), { body: Buffer.from(xml), headers: { 'content-type': 'application/xml' } });
      const text = await done.text();
      // S3 may answer 200 and still report a failure in the body.
      if (!done.ok || text.includes('<Error>')) throw new S3Error(`S3 completing an upload failed: ${done.status}`, done.status || 502);
      return size;
    } catch (err) {
      await call('DELETE', urlOf(key, { uploadId })).then((r) => r.arrayBuffer()).catch(() => undefined);
      throw err;
    }
  }

  return {
    async put(key, body, options) {
      if (Buffer.isBuffer(body)) {
        await putObject(key, body, options?.contentType);
        return { size: body.length };
      }
      const parts = partsOf(body, partSize);
      try {
        const first = await parts.next();
        const firstPart = first.done ? Buffer.alloc(0) : first.value;
        const second = first.done ? { done: true as const, value: undefined } : await parts.next();
        if (second.done) {
          await putObject(key, firstPart, options?.contentType);
          return { size: firstPart.length };
        }
        // The second part is already read: hand it on ahead of the rest.
        const rest = (async function* () {
          yield second.value;
          yield* parts;
        })();
        return { size: await putMultipart(key, firstPart, rest, options?.contentType) };
      } finally {
        body.destroy();
      }
    },
    async get(key, range) {
      const res = await call('GET', urlOf(key), { headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
      if (!res.ok) throw await failure(res, 'download');
      if (!res.body) return Readable.from([]);
      return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    },
    async *list() {
      for await (const object of listObjects()) yield object.key;
    },
    async *listOlderThan(olderThan) {
      for await (const object of listObjects()) if (object.modified !== null && object.modified < olderThan) yield object.key;
    },
    async stat(key) {
      const res = await call('HEAD', urlOf(key));
      if (res.status === 404) return null;
      if (!res.ok) throw await failure(res, 'stat');
      return { size: Number(res.headers.get('content-length') ?? 0) };
    },
    async delete(key) {
      const res = await call('DELETE', urlOf(key));
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok && res.status !== 404) throw await failure(res, 'delete');
    },
  };
}
