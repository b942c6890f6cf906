import { blogImageSrcSet, blogImageUrl, type BlogImage } from '../../../common/schemas/blog.ts';

/** A blog image at the size the screen needs: AVIF where the browser reads it, WebP otherwise. */
export function BlogPicture({ image, alt, sizes, className }: { image: BlogImage; alt: string; sizes: string; className?: string }) {
  return (
    <picture>
      <source type="image/avif" srcSet={blogImageSrcSet(image._id, 'avif')} sizes={sizes} />
      <img
        src={blogImageUrl(image._id, 960, 'webp')}
        srcSet={blogImageSrcSet(image._id, 'webp')}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        className={className}
      />
    </picture>
  );
}
