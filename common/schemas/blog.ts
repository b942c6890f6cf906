// The blog's fixed values (specification sections 4 and 5), shared by the schema, the API and the screens.

/** The eleven categories a blog post may have, in the specification's order. */
export const BLOG_CATEGORIES = [
  'Civil Engineering',
  'Design & Planning',
  'Marine & Logistics',
  'Mechanical Engineering',
  'Oil & Gas Services',
  'Infrastructure',
  'Project Management',
  'Sustainability',
  'Technology',
  'Safety',
  'Industry News',
] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

/** Draft (default), published, or scheduled: published automatically once `publishAt` has come. */
export const BLOG_STATUSES = ['draft', 'published', 'scheduled'] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];

/** Visible (default) or hidden from visitors. */
export const BLOG_VISIBILITIES = ['visible', 'hidden'] as const;
export type BlogVisibility = (typeof BLOG_VISIBILITIES)[number];

/** Widths (px) of the renditions stored for every blog image, each as AVIF and WebP. */
export const BLOG_IMAGE_WIDTHS = [480, 960, 1600] as const;
export type BlogImageWidth = (typeof BLOG_IMAGE_WIDTHS)[number];
export type BlogImageFormat = 'avif' | 'webp';

/** Where a rendition of a blog image is served (public: banners and images inside published posts). */
export function blogImageUrl(imageId: string, width: BlogImageWidth, format: BlogImageFormat): string {
  return `/api/blog/images/${encodeURIComponent(imageId)}/${width}.${format}`;
}
