import { displaySafeName } from '../../common/file-names.ts';

/**
 * A Content-Disposition value that every browser reads: an ASCII fallback name plus the exact
 * UTF-8 name (RFC 6266 / RFC 5987), with quotes and control characters removed.
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  // Control, direction and invisible characters go too (decision 112), also from names stored before.
  const safe = displaySafeName(fileName).replace(/["\\]/g, '').trim() || 'file';
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}
