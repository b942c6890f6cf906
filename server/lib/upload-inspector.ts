import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { badRequest } from '../../common/errors.ts';

// An Office file is a ZIP whose first entries name its kind; 64 KiB holds them (and an image's size).
const HEAD_BYTES = 64 * 1024;

interface InspectorOptions<K> {
  /** The file's name, for the messages. */
  name: string;
  maxBytes: number;
  tooLarge: (name: string) => Error;
  /** Judges the kind from the first bytes; throws (a 415, a 400) when the upload is not one to keep. */
  judge: (head: Buffer) => Promise<K>;
  /** Also computes the SHA-256 of every byte as it passes (`digest()` at the end). */
  sha256?: boolean;
}

/**
 * Passes an upload's bytes through while counting them (and hashing them when asked) and judges its
 * kind by its first bytes, before anything after them is written: the upload fails as soon as it is
 * larger than the limit or its first bytes are not a kind the caller keeps. Memory stays flat at the
 * head's 64 KiB whatever the size. Message attachments (decision 112) and project documents
 * (decision 292) stream through it.
 */
export class UploadInspector<K> extends Transform {
  private head: Buffer[] = [];
  private headLength = 0;
  private readonly hash: Hash | null;
  size = 0;
  kind: K | undefined;

  constructor(private readonly options: InspectorOptions<K>) {
    super();
    this.hash = options.sha256 ? createHash('sha256') : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.options.maxBytes) return callback(this.options.tooLarge(this.options.name));
    this.hash?.update(chunk);
    if (this.kind !== undefined) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < HEAD_BYTES) return callback();
    this.decide(callback);
  }

  override _flush(callback: TransformCallback) {
    if (this.size === 0) return callback(badRequest(`${this.options.name} is empty`));
    if (this.kind === undefined) return this.decide(callback);
    callback();
  }

  /** The SHA-256 of the bytes, in hex (once the stream has ended; only with `sha256`). */
  digest(): string {
    if (!this.hash) throw new Error('UploadInspector: made without sha256');
    return this.hash.digest('hex');
  }

  private decide(callback: TransformCallback) {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.options.judge(head).then(
      (kind) => {
        this.kind = kind;
        callback(null, head);
      },
      (err: Error) => callback(err),
    );
  }
}
