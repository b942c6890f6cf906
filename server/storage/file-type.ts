import type { fileTypeFromBuffer as FromBuffer } from 'file-type';

/** The bytes a file starts with are enough to tell its real type. */
export const SNIFF_BYTES = 4100;

let fileTypeModule: Promise<{ fileTypeFromBuffer: typeof FromBuffer }> | undefined;

export interface SniffedType {
  ext: string;
  mime: string;
}

/**
 * The type a file really is, judged by its first bytes, never by its name or declared type.
 * Plain text has no signature: it counts as text only when its sample is valid UTF-8 without NUL bytes.
 */
export async function sniffFileType(head: Buffer): Promise<SniffedType | null> {
  // Loaded with the first upload of a process (decision 180).
  const { fileTypeFromBuffer } = await (fileTypeModule ??= import('file-type'));
  const found = await fileTypeFromBuffer(head);
  if (found) return { ext: found.ext, mime: found.mime };
  if (head.length > 0 && !head.includes(0)) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.min(head.length, SNIFF_BYTES - 4)));
      return { ext: 'txt', mime: 'text/plain' };
    } catch {
      return null;
    }
  }
  return null;
}
