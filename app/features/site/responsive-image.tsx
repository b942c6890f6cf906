import { IMAGE_MANIFEST, type ImageEntry, type ImageKey } from '../../../common/content/image-manifest.ts';
import type { MediaPicture } from '../../../common/schemas/media.ts';
import { MEDIA_REFERENCE } from '../../../common/site-content-context.ts';
import { useSiteMedia } from '../../lib/site-content.ts';

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

type ImageProps = {
  image: string;
  alt: string;
  /** The rendered width, as an <img sizes> value. */
  sizes: string;
  priority?: boolean;
  className?: string;
};

/**
 * A picture of the media library (`media/<uuid>`, decision 289): its AVIF and WebP renditions with
 * their widths, the rendition's own width and height (no shift) and the focal point for crops. The
 * snapshot carries the item, so drawing it needs no query.
 */
function MediaImage({ picture, alt, sizes, priority, className }: Omit<ImageProps, 'image'> & { picture: MediaPicture }) {
  return (
    <picture>
      {picture.sources
        .filter((source) => source.type !== 'image/webp' && source.srcset !== '')
        .map((source) => (
          <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
        ))}
      <img
        src={picture.src}
        srcSet={picture.sources.find((source) => source.type === 'image/webp')?.srcset}
        sizes={sizes}
        width={picture.width}
        height={picture.height}
        alt={alt}
        loading={priority ? 'eager' : 'lazy'}
        decoding={priority ? 'sync' : 'async'}
        fetchPriority={priority ? 'high' : undefined}
        className={className}
        style={{ objectPosition: picture.objectPosition }}
      />
    </picture>
  );
}

/**
 * A picture of the site: a media-library item (`media/<uuid>`) or one of the drawn starting
 * pictures of the image manifest. A media item missing from the snapshot (deleted since) draws nothing.
 */
export function ResponsiveImage(props: ImageProps) {
  const media = useSiteMedia();
  if (MEDIA_REFERENCE.test(props.image)) {
    const picture = media[props.image];
    return picture ? <MediaImage picture={picture} {...props} /> : null;
  }
  return <DrawnImage {...props} />;
}

/**
 * A generated picture in AVIF with a WebP fallback, at the widths the browser needs. Width and
 * height are always set (no layout shift); pictures load lazily unless `priority` says it is the
 * first thing on screen.
 */
function DrawnImage({ image, alt, sizes, priority = false, className }: ImageProps) {
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
