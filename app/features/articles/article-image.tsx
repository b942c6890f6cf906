import clsx from 'clsx';
import type { ArticleImage } from '../../../common/schemas/articles.ts';

/** A CSS url() of an address, escaped so that no address can end the value or the declaration. */
function cssUrl(address: string): string {
  return `url("${address.replace(/["\\\n\r\f()'<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
}

/**
 * The picture of an article. Our own banners come as AVIF/WebP renditions; an outside picture is the
 * top layer of a CSS background whose bottom layer is the stock picture, so a missing, slow, refused
 * (Content-Security-Policy) or broken outside picture leaves the stock one showing, with no script.
 */
export function ArticlePicture({
  image,
  fallback,
  alt,
  sizes,
  priority = false,
  className,
}: {
  image: ArticleImage;
  fallback: string;
  /** Empty for a decorative picture (cards, whose title says it all). */
  alt: string;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  if (image?.kind === 'own') {
    return (
      <picture>
        <source type="image/avif" srcSet={image.avifSrcSet} sizes={sizes} />
        <img
          src={image.src}
          srcSet={image.webpSrcSet}
          sizes={sizes}
          width={image.width}
          height={image.height}
          alt={alt}
          loading={priority ? 'eager' : 'lazy'}
          decoding="async"
          className={clsx('bg-slate-200 object-cover dark:bg-slate-800', className)}
          style={{ backgroundImage: cssUrl(fallback), backgroundSize: 'cover' }}
        />
      </picture>
    );
  }
  if (image?.kind === 'remote') {
    return (
      <div
        data-article-image="remote"
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        className={clsx('bg-slate-200 bg-cover bg-center dark:bg-slate-800', className)}
        style={{ backgroundImage: `${cssUrl(image.src)}, ${cssUrl(fallback)}` }}
      />
    );
  }
  return (
    <img
      data-article-image="fallback"
      src={fallback}
      alt={alt}
      width={800}
      height={450}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      className={clsx('bg-slate-200 object-cover dark:bg-slate-800', className)}
    />
  );
}
