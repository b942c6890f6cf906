import type { Readable, Writable } from 'node:stream';

/**
 * The backup file (decision 165): gzip around a magic line and a sequence of frames. A frame is a
 * 4-byte big-endian header length, the header as JSON, then `size` bytes of payload (table data in
 * PostgreSQL's COPY text format, or file bytes). One pass writes it and one pass reads it, so
 * neither side holds more than one frame in memory.
 */
const MAGIC = Buffer.from('COMPANY-PORTAL-BACKUP 1\n');
/** Largest payload of one frame; table data and files are cut into frames of at most this size. */
export const FRAME_BYTES = 1024 * 1024;

export type FrameHeader =
  | { type: 'manifest'; format: 1; createdAt: string; schema: { migrations: number; lastTag: string; lastWhen: number }; source: 'postgresql'; serverVersion: string; tables: string[] }
  | { type: 'table'; name: string; columns: string[] }
  | { type: 'table-data'; name: string; size: number }
  | { type: 'table-end'; name: string; rows: number; sha256: string }
  | { type: 'sequence'; name: string; value: string; isCalled: boolean }
  | { type: 'file'; key: string }
  | { type: 'file-data'; key: string; size: number }
  | { type: 'file-end'; key: string; bytes: number; sha256: string }
  | { type: 'end'; tables: number; rows: number; files: number; fileBytes: number };

export interface Frame {
  header: FrameHeader;
  payload: Buffer;
}

/** Writes frames to a stream, waiting for it to drain so a slow disk holds memory steady. */
export function frameWriter(out: Writable) {
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const ok = out.write(chunk, (err) => (err ? reject(err) : undefined));
      if (ok) resolve();
      else out.once('drain', resolve);
    });
  return {
    magic: () => write(MAGIC),
    async frame(header: FrameHeader, payload: Buffer = Buffer.alloc(0)) {
      const json = Buffer.from(JSON.stringify({ ...header, ...('size' in header ? { size: payload.length } : {}) }));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(json.length);
      await write(Buffer.concat([length, json]));
      if (payload.length) await write(payload);
    },
  };
}

export class BackupFormatError extends Error {}

/** Reads the frames of a backup file's (already unzipped) stream, checking the magic line first. */
export async function* readFrames(input: Readable): AsyncGenerator<Frame> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  async function take(n: number): Promise<Buffer | null> {
    while (length < n && !ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else {
        chunks.push(next.value);
        length += next.value.length;
      }
    }
    if (length < n) {
      if (length === 0 && ended) return null;
      throw new BackupFormatError('The backup file ends in the middle of a record: it is truncated or damaged.');
    }
    const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const rest = all.subarray(n);
    chunks = rest.length ? [rest] : [];
    length = rest.length;
    return all.subarray(0, n);
  }
  const magic = await take(MAGIC.length);
  if (!magic || !magic.equals(MAGIC)) throw new BackupFormatError('This is not a backup file of this product (or it is of a newer format).');
  for (;;) {
    const lengthBytes = await take(4);
    if (!lengthBytes) return;
    const length = lengthBytes.readUInt32BE();
    if (length > 1024 * 1024) throw new BackupFormatError('The backup file has a damaged record header.');
    const headerBytes = (await take(length))!;
    let header: FrameHeader;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as FrameHeader;
    } catch {
      throw new BackupFormatError('The backup file has a damaged record header.');
    }
    const size = 'size' in header ? header.size : 0;
    if (!Number.isInteger(size) || size < 0 || size > FRAME_BYTES) throw new BackupFormatError('The backup file has a damaged record header.');
    const payload = size ? (await take(size))! : Buffer.alloc(0);
    yield { header, payload };
  }
}
