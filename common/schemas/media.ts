import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';
import { paginationQuerySchema, paginationSchema } from './pagination.ts';

/** The widths renditions are made at (never wider than the upload; then the upload's own width is the last). */
export const MEDIA_WIDTHS = [320, 640, 960, 1280, 1920] as const;
const MEDIA_FORMATS = ['avif', 'webp'] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];
/** What a library item is: an image (renditions made at upload) or a PDF (kept as uploaded, decision 295). */
export const MEDIA_KINDS = ['image', 'pdf'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const PDF_MIME = 'application/pdf';
/** The kind of an item by its sniffed type. */
export const mediaKindOf = (mime: string): MediaKind => (mime === PDF_MIME ? 'pdf' : 'image');
/** The image types an upload may be, judged by its bytes (a PDF is known by its first bytes, `%PDF-`). */
export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
/** A camera's full-quality JPEG is 5 to 12 MB; 20 MB leaves room for a large PNG. */
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
export const MEDIA_ALT_MAX = 300;
export const MEDIA_PAGE_SIZE = 24;

export const MEDIA_MESSAGES = {
  altRequired: 'Describe the image for people who cannot see it (alt text)',
  altTooLong: `Keep the alt text under ${MEDIA_ALT_MAX} characters`,
  svgRefused: 'SVG images are not accepted: they can carry scripts. Please upload a JPEG, PNG, WebP or AVIF image.',
  noFile: 'Please choose an image file',
  notPdf: 'This file is not a PDF (a PDF starts with "%PDF-"). Please upload the certificate as a PDF.',
  pdfNotImage: 'This file is a PDF: choose or upload an image here.',
  inUse: (places: string[]) => `This image is used in ${places.join(', ')}. Remove it there first.`,
  notFound: 'Image not found',
} as const;

/** The widths of an upload `width` pixels wide: each standard width below it, then its own (up to the largest). */
export function mediaWidthsFor(width: number): number[] {
  const top = Math.min(width, MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1]);
  return [...MEDIA_WIDTHS.filter((w) => w < top), top];
}

export const mediaAltSchema = z.string().trim().min(1, MEDIA_MESSAGES.altRequired).max(MEDIA_ALT_MAX, MEDIA_MESSAGES.altTooLong);
const focal = z.number().min(0, 'Between 0 and 1').max(1, 'Between 0 and 1');

export const mediaUpdateSchema = z
  .object({ altText: mediaAltSchema.optional(), focalX: focal.optional(), focalY: focal.optional() })
  .refine((b) => b.altText !== undefined || b.focalX !== undefined || b.focalY !== undefined, { message: 'Nothing to change' });
export type MediaUpdate = z.infer<typeof mediaUpdateSchema>;

export const mediaIdParamsSchema = z.object({ id: z.uuid() });
export const mediaListQuerySchema = paginationQuerySchema.extend({
  pageSize: z.coerce.number().int().min(1).max(100).default(MEDIA_PAGE_SIZE),
  /** Only the items whose alt text contains this (the media picker's search, decision 291). */
  q: z.string().trim().max(MEDIA_ALT_MAX).optional(),
  /** Only images, or only PDFs (a picker limited to one kind, decision 295). */
  kind: z.enum(MEDIA_KINDS).optional(),
});

const mediaVariantSchema = z.object({ format: z.enum(MEDIA_FORMATS), width: z.number().int(), height: z.number().int(), size: z.number().int() });
const mediaUsageSchema = z.object({ usedIn: z.string(), label: z.string() });

const mediaItemSchema = z.object({
  _id: z.string(),
  originalName: z.string(),
  mime: z.string(),
  kind: z.enum(MEDIA_KINDS),
  /** 0 for a PDF. */
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  altText: z.string(),
  focalX: z.number(),
  focalY: z.number(),
  /** An image's renditions; none for a PDF. */
  variants: z.array(mediaVariantSchema),
  usages: z.array(mediaUsageSchema),
  createdAt: z.string(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const mediaItemResponseSchema = okResponse({ item: mediaItemSchema });
export const mediaListResponseSchema = okResponse({ items: z.array(mediaItemSchema), pagination: paginationSchema });
export type MediaListResponse = z.infer<typeof mediaListResponseSchema>;
export const mediaDeleteResponseSchema = okResponse({ deleted: z.literal(true) });

/** The public address of one rendition: a new upload has a new id, so an address never changes what it serves. */
export const mediaVariantUrl = (id: string, width: number, format: MediaFormat) => `/api/media/${id}/${width}.${format}`;

/** The public address of a PDF item: the file as uploaded, never changed under its address either. */
export const mediaPdfUrl = (id: string) => `/api/media/${id}/document.pdf`;

/** What a page needs to link a PDF item: its address, size and title (the item's alt text). */
interface MediaDocument {
  url: string;
  bytes: number;
  title: string;
}

/** "240 KB", "1.4 MB": a file's size as a link names it. */
export function fileSizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What a page needs to draw an item without a shift: the sources per format, sizes and the intrinsic size. */
export interface MediaPicture {
  /** WebP at the largest width: the <img src> for a browser without srcset. */
  src: string;
  sources: { type: `image/${MediaFormat}`; srcset: string }[];
  sizes: string;
  width: number;
  height: number;
  alt: string;
  /** CSS object-position from the focal point, for crops. */
  objectPosition: string;
  /** Set for a PDF item (no picture to draw: its sources are empty): what a link to it needs (decision 295). */
  document?: MediaDocument;
}

/** Builds srcset/sizes (AVIF first, then WebP) and the intrinsic width/height of an item. */
export function mediaPicture(
  item: Pick<MediaItem, '_id' | 'width' | 'height' | 'altText' | 'focalX' | 'focalY'> & {
    variants: { format: string; width: number; height: number }[];
  },
  sizes = '100vw',
): MediaPicture {
  const of = (format: MediaFormat) => item.variants.filter((v) => v.format === format).sort((a, b) => a.width - b.width);
  const srcset = (format: MediaFormat) => of(format).map((v) => `${mediaVariantUrl(item._id, v.width, format)} ${v.width}w`).join(', ');
  const webp = of('webp');
  const largest = webp[webp.length - 1];
  const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;
  return {
    src: largest ? mediaVariantUrl(item._id, largest.width, 'webp') : '',
    sources: MEDIA_FORMATS.map((format) => ({ type: `image/${format}` as const, srcset: srcset(format) })),
    sizes,
    // The rendition's own size: the ratio the browser reserves is exactly the one it draws.
    width: largest?.width ?? item.width,
    height: largest?.height ?? item.height,
    alt: item.altText,
    objectPosition: `${pct(item.focalX)} ${pct(item.focalY)}`,
  };
}
