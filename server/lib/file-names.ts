import { displaySafeName } from '../../common/file-names.ts';

/** How long a stored upload's name may be, in characters. */
const FILE_NAME_MAX_CHARS = 200;

/**
 * The name cut to `max` characters (code points, so no character is split) around its extension:
 * the end of the stem goes, the extension (up to ten characters) stays, because it is what says
 * what the file is when it is downloaded again.
 */
export function shortenKeepingExtension(name: string, max: number): string {
  if ([...name].length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return [...name.slice(0, name.length - ext.length)].slice(0, max - ext.length).join('') + ext;
}

/**
 * The uploader's file name (a report or blog image, a vendor document), reduced to something safe to
 * show and to put in a header: the last path segment, without direction, control or invisible
 * characters (decision 112) and quotes, at most FILE_NAME_MAX_CHARS long with its extension kept;
 * `fallback` when nothing is left.
 */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = displaySafeName(base).replace(/"/g, '').trim();
  return cleaned ? shortenKeepingExtension(cleaned, FILE_NAME_MAX_CHARS) : fallback;
}
