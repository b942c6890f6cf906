import '../zod-setup.ts';
import { z } from 'zod';
import { IMAGE_MANIFEST } from './image-manifest.ts';

// What an image field of the website's content holds (issue 24, decision 291): a key of the drawn
// starting images (common/content/image-manifest.ts), or 'media/<uuid>' naming an item of the media
// library. Anything else is refused by the content schemas, so a page never meets an image it cannot draw.

const MEDIA_REF = /^media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The media item id a reference names, or null for a manifest key (or anything else). */
export function mediaIdOf(ref: string): string | null {
  return MEDIA_REF.exec(ref)?.[1] ?? null;
}

/** The reference an image field stores for a media item. */
export const mediaRef = (id: string) => `media/${id}`;

/** An image field: a manifest key or 'media/<uuid>'. */
export const imageRefSchema = z
  .string()
  .refine((v) => Object.hasOwn(IMAGE_MANIFEST, v) || MEDIA_REF.test(v), 'Choose an image from the media library');

/** A PDF field (a certificate's optional PDF, decision 295): 'media/<uuid>' naming a PDF of the library. */
export const pdfRefSchema = z.string().regex(MEDIA_REF, 'Choose a PDF from the media library');

/** The kind of library item a reference at `path` must name: a field called `pdf` holds a PDF, every other an image. */
export const mediaKindAt = (path: readonly (string | number)[]): 'image' | 'pdf' =>
  path[path.length - 1] === 'pdf' ? 'pdf' : 'image';

/** Every media reference in a document, with the field path it sits at ('members.2.image'). */
export function mediaRefsIn(document: unknown, path: (string | number)[] = []): { path: (string | number)[]; id: string }[] {
  if (typeof document === 'string') {
    const id = mediaIdOf(document);
    return id ? [{ path, id }] : [];
  }
  if (Array.isArray(document)) return document.flatMap((v, i) => mediaRefsIn(v, [...path, i]));
  if (document && typeof document === 'object') return Object.entries(document).flatMap(([k, v]) => mediaRefsIn(v, [...path, k]));
  return [];
}
