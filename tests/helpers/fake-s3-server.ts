import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { freePort } from './free-port.ts';

/**
 * A local S3-compatible HTTP server for tests: one bucket in memory, path-style URLs, the calls the
 * storage makes (PUT, GET with Range, HEAD, DELETE, multipart create/part/complete/abort). It checks
 * every request's Signature Version 4 with its own code, so a signing mistake fails like it would
 * on the real service (403 SignatureDoesNotMatch).
 */
export interface FakeS3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { body: Buffer; contentType?: string }>;
  /** Multipart uploads started and neither completed nor aborted. */
  openUploads(): number;
  /** Every request as `METHOD path?query`, oldest first. */
  log: string[];
  /** Answers the next n part uploads with a 500 (to exercise aborts). */
  failNextParts(n: number): void;
  close(): Promise<void>;
}

const enc = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

function expectedSignature(req: http.IncomingMessage, url: URL, signedHeaders: string[], scope: string[], secret: string): string {
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .sort()
    .join('&');
  const path = url.pathname.split('/').map((s) => enc(decodeURIComponent(s))).join('/');
  const canonical = [req.method, path, query, canonicalHeaders, signedHeaders.join(';'), req.headers['x-amz-content-sha256']].join('\n');
  const amzDate = String(req.headers['x-amz-date']);
  const [date, region, service] = scope;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, `${scope.join('/')}/aws4_request`, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

const xmlError = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;

export async function startFakeS3Server(): Promise<FakeS3Server> {
  const port = await freePort();
  const bucket = 'portal-test';
  const region = 'eu-west-1';
  const accessKeyId = 'AKIDTEST';
  const secretAccessKey = randomBytes(20).toString('base64');
  const objects = new Map<string, { body: Buffer; contentType?: string }>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer>; contentType?: string }>();
  const log: string[] = [];
  let partFailures = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      log.push(`${req.method} ${url.pathname}${url.search}`);
      const send = (status: number, payload: string | Buffer = '', headers: Record<string, string> = {}) => {
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : payload);
      };

      // Authentication: the signature, the scope, and the body's hash.
      const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        String(req.headers.authorization ?? ''),
      );
      if (!auth || auth[1] !== accessKeyId) return send(403, xmlError('InvalidAccessKeyId'));
      const signed = auth[5].split(';');
      if (!signed.includes('host') || !signed.includes('x-amz-date') || !signed.includes('x-amz-content-sha256')) return send(403, xmlError('AccessDenied'));
      if (auth[3] !== region || auth[4] !== 's3') return send(400, xmlError('AuthorizationHeaderMalformed'));
      if (expectedSignature(req, url, signed, [auth[2], auth[3], auth[4]], secretAccessKey) !== auth[6]) return send(403, xmlError('SignatureDoesNotMatch'));
      if (req.headers['x-amz-content-sha256'] !== createHash('sha256').update(body).digest('hex')) return send(400, xmlError('XAmzContentSHA256Mismatch'));

      const [, bucketName, ...rest] = url.pathname.split('/');
      if (bucketName !== bucket) return send(404, xmlError('NoSuchBucket'));
      const key = rest.map(decodeURIComponent).join('/');
      const q = url.searchParams;

      if (req.method === 'POST' && q.has('uploads')) {
        const id = randomBytes(8).toString('hex');
        uploads.set(id, { key, parts: new Map(), contentType: req.headers['content-type'] });
        return send(200, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (q.has('uploadId')) {
        const upload = uploads.get(q.get('uploadId')!);
        if (!upload) return send(404, xmlError('NoSuchUpload'));
        if (req.method === 'PUT') {
          if (partFailures > 0) {
            partFailures--;
            return send(500, xmlError('InternalError'));
          }
          upload.parts.set(Number(q.get('partNumber')), body);
          return send(200, '', { ETag: `"${createHash('md5').update(body).digest('hex')}"` });
        }
        if (req.method === 'DELETE') {
          uploads.delete(q.get('uploadId')!);
          return send(204);
        }
        if (req.method === 'POST') {
          const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
          if (numbers.some((n) => !upload.parts.has(n))) return send(400, xmlError('InvalidPart'));
          objects.set(upload.key, { body: Buffer.concat(numbers.map((n) => upload.parts.get(n)!)), contentType: upload.contentType });
          uploads.delete(q.get('uploadId')!);
          return send(200, `<CompleteMultipartUploadResult><Key>${upload.key}</Key></CompleteMultipartUploadResult>`);
        }
      }
      const object = objects.get(key);
      switch (req.method) {
        case 'PUT':
          objects.set(key, { body, contentType: req.headers['content-type'] });
          return send(200, '', { ETag: `"${createHash('md5').update(body).digest('hex')}"` });
        case 'HEAD':
        case 'GET': {
          if (!object) return send(404, xmlError('NoSuchKey'));
          const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
          if (range) {
            const start = Number(range[1]);
            const end = Math.min(Number(range[2]), object.body.length - 1);
            return send(206, object.body.subarray(start, end + 1), {
              'Content-Range': `bytes ${start}-${end}/${object.body.length}`,
              'Content-Length': String(end - start + 1),
            });
          }
          return send(200, object.body, { 'Content-Length': String(object.body.length), 'Content-Type': object.contentType ?? 'binary/octet-stream' });
        }
        case 'DELETE':
          objects.delete(key);
          return send(204);
        default:
          return send(405, xmlError('MethodNotAllowed'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objects,
    openUploads: () => uploads.size,
    log,
    failNextParts(n) {
      partFailures = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
