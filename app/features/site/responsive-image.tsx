import { IMAGE_MANIFEST, type ImageEntry, type ImageKey } from '../../../common/content/image-manifest.ts';

/** Screens narrower than this get the portrait rendering of a picture that has one. */
const PORTRAIT_MEDIA = '(max-width: 767px)';
const LANDSCAPE_MEDIA = '(min-width: 768px)';

function entryOf(image: string): ImageEntry {
  const entry = (IMAGE_MANIFEST as Record<string, ImageEntry>)[image];
  if (!entry) throw new Error(`Unknown picture ${image}`);
  return entry;
}

function srcSet(image: string, widths: readonly number[], ext: 'avif' | 'webp', suffix = '') {
  return widths.map((w) => `/images/${image}${suffix}-${w}.${ext} ${w}w`).join(', ');
}

/** The preload links of a picture shown at the top of a page (its portrait and landscape forms). */
export function imagePreloadLinks(image: ImageKey, sizes = '100vw') {
  const entry = entryOf(image);
  const landscape = { rel: 'preload', as: 'image', type: 'image/avif', imageSrcSet: srcSet(image, entry.widths, 'avif'), imageSizes: sizes, fetchPriority: 'high' };
  if (!entry.portrait) return [landscape];
  return [
    { ...landscape, imageSrcSet: srcSet(image, entry.portrait.widths, 'avif', '-portrait'), media: PORTRAIT_MEDIA },
    { ...landscape, media: LANDSCAPE_MEDIA },
  ];
}

/**
 * A generated picture in AVIF with a WebP fallback, at the widths the browser needs. Width and
 * height are always set (no layout shift); pictures load lazily unless `priority` says it is the
 * first thing on screen.
 */
export function ResponsiveImage({
  image,
  alt,
  sizes,
  priority = false,
  className,
}: {
  image: string;
  alt: string;
  /** The rendered width, as an <img sizes> value. */
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  const entry = entryOf(image);
  const middle = entry.widths[Math.floor((entry.widths.length - 1) / 2)];
  return (
    <picture>
      {entry.portrait ? (
        <>
          <source media={PORTRAIT_MEDIA} type="image/avif" srcSet={srcSet(image, entry.portrait.widths, 'avif', '-portrait')} sizes={sizes} />
          <source media={PORTRAIT_MEDIA} type="image/webp" srcSet={srcSet(image, entry.portrait.widths, 'webp', '-portrait')} sizes={sizes} />
        </>
      ) : null}
      <source type="image/avif" srcSet={srcSet(image, entry.widths, 'avif')} sizes={sizes} />
      <img
        src={`/images/${image}-${middle}.webp`}
        srcSet={srcSet(image, entry.widths, 'webp')}
        sizes={sizes}
        width={entry.width}
        height={entry.height}
        alt={alt}
        loading={priority ? 'eager' : 'lazy'}
        decoding={priority ? 'sync' : 'async'}
        fetchPriority={priority ? 'high' : undefined}
        className={className}
      />
    </picture>
  );
}
