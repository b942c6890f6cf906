import '../zod-setup.ts';
import { z } from 'zod';
import { refineSingleLine, storableText } from './text.ts';
import { multiline } from './line-endings.ts';
import { okResponse } from './ok-response.ts';

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

// ---- The staff API of the blog (server/modules/blog/blog.routes.ts) and its screens ----


/** Length limits of a post's fields (characters). The content limit is of the HTML as saved. */
export const BLOG_LIMITS = {
  title: 200,
  slug: 100,
  excerpt: 500,
  author: 100,
  content: 200_000,
  search: 100,
} as const;
/**
 * Largest JSON body of a post save: the content limit at up to 6 bytes a character once escaped,
 * plus the other fields. A larger body (say 30 MB) is refused with 413 before it is read.
 */
export const BLOG_POST_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** Staff's list of posts: this many a page. */
export const BLOG_LIST_PAGE_SIZE = 20;
/** A banner or an image inside a post: at most this many bytes (its pixel limit: server/lib/image-limits.ts). */
export const BLOG_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** Image types a blog image may be, judged by its bytes. */
export const BLOG_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;

/** The texts of the blog screens: the specification's toasts (section 8) and the API's refusals. */
export const BLOG_MESSAGES = {
  created: { title: 'Blog Post Created', description: 'The new blog post has been successfully created.' },
  updated: { title: 'Blog Post Updated', description: 'The blog post has been successfully updated.' },
  deleted: { title: 'Blog Deleted', description: 'The blog post has been successfully deleted.' },
  imageUploaded: { title: 'Image Uploaded', description: 'Banner image has been uploaded successfully.' },
  imageUpdated: { title: 'Image Updated', description: 'Banner image has been updated successfully.' },
  confirmDelete: { title: 'Are you sure?', description: 'This action cannot be undone. This will permanently delete the blog post.' },
  versionConflict: 'This post was changed by someone else since you opened it. Reload to see their changes.',
  notFound: 'Blog post not found',
  slugLocked: 'The address (slug) of a post stays the same once it has been published, so links to it keep working.',
  bannerMissing: 'The banner image was not found. Please upload it again.',
  publishedInFuture: 'A published post cannot be dated in the future: choose Scheduled to publish it later.',
  scheduleNeedsDate: 'Please choose the date and time a scheduled post goes out',
  bodyTooLarge: `The post is too large to save (at most ${BLOG_POST_BODY_LIMIT_BYTES / (1024 * 1024)} MB). Move large images into uploads or shorten the text.`,
  uploadsRateLimited: (wait: string) => `Too many image uploads. Please try again in ${wait}.`,
  loadFailed: 'Failed to load blog posts',
  loadOneFailed: 'Failed to load the blog post',
  saveFailed: 'Failed to save the blog post',
  deleteFailed: 'Failed to delete the blog post',
  visibilityFailed: 'Failed to update visibility',
  uploadFailed: 'Failed to upload the image',
} as const;

export const BLOG_STATUS_LABELS: Record<BlogStatus, string> = { draft: 'Draft', published: 'Published', scheduled: 'Scheduled' };
export const BLOG_VISIBILITY_LABELS: Record<BlogVisibility, string> = { visible: 'Visible', hidden: 'Hidden' };

const required = (what: string, max: number, base = storableText()) =>
  base
    .trim()
    .min(1, `Please fill in the ${what} field`)
    .max(max, `The ${what} is too long (at most ${max.toLocaleString('en-GB')} characters)`);

/** A required one-line field (title, author): no line breaks or invisible characters (decision 195). */
const requiredLine = (what: string, max: number) =>
  refineSingleLine(storableText().trim(), `The ${what}`)
    .min(1, `Please fill in the ${what} field`)
    .max(max, `The ${what} is too long (at most ${max.toLocaleString('en-GB')} characters)`);

/** A slug: lower-case letters, digits and single hyphens. Empty means "make it from the title". */
const blogSlugSchema = z
  .string()
  .trim()
  .max(BLOG_LIMITS.slug, `The slug is too long (at most ${BLOG_LIMITS.slug} characters)`)
  .regex(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/, 'The slug may hold only lower-case letters, digits and single hyphens');

/** The fields staff write, as the create and edit forms send them. */
export const blogPostFieldsSchema = z
  .object({
    title: requiredLine('title', BLOG_LIMITS.title),
    slug: blogSlugSchema.optional(),
    author: requiredLine('author', BLOG_LIMITS.author),
    category: z.enum(BLOG_CATEGORIES, { error: 'Please choose one of the categories' }),
    excerpt: required('excerpt', BLOG_LIMITS.excerpt, multiline(storableText())),
    content: required('content', BLOG_LIMITS.content, multiline(storableText())),
    bannerImageId: z.uuid('The banner image is not valid').nullable().default(null),
    status: z.enum(BLOG_STATUSES).default('draft'),
    visibility: z.enum(BLOG_VISIBILITIES).default('visible'),
    /** The publication date: required for a scheduled post, optional (a back-date) for a published one. */
    publishAt: z.iso.datetime({ offset: true, error: 'The publication date is not a valid date' }).nullable().default(null),
  })
  .refine((p) => p.status !== 'scheduled' || p.publishAt !== null, { message: BLOG_MESSAGES.scheduleNeedsDate, path: ['publishAt'] });
export type BlogPostFields = z.input<typeof blogPostFieldsSchema>;
export type BlogPostFieldsParsed = z.output<typeof blogPostFieldsSchema>;

/** An edit names the version it started from; a save over a newer version is refused (409). */
export const blogPostUpdateSchema = z.intersection(blogPostFieldsSchema, z.object({ version: z.number().int().min(1) }));
export type BlogPostUpdate = z.input<typeof blogPostUpdateSchema>;

export const blogVisibilitySchema = z.object({ visibility: z.enum(BLOG_VISIBILITIES) });
export const blogPostIdParamsSchema = z.object({ id: z.uuid('Blog post not found') });

export const blogListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  q: storableText().trim().max(BLOG_LIMITS.search).optional(),
});

const blogImageSchema = z.object({ _id: z.uuid(), width: z.number().int(), height: z.number().int() });
export type BlogImage = z.infer<typeof blogImageSchema>;

const blogPostSummaryShape = {
  _id: z.uuid(),
  title: z.string(),
  slug: z.string(),
  author: z.string(),
  category: z.string(),
  /** As shown: a scheduled post whose time has come reads as published. */
  status: z.enum(BLOG_STATUSES),
  visibility: z.enum(BLOG_VISIBILITIES),
  /** The publication date (null for a draft never published). */
  publishAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  version: z.number().int(),
};
const blogPostSummarySchema = z.object(blogPostSummaryShape);
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

const blogPostSchema = z.object({
  ...blogPostSummaryShape,
  excerpt: z.string(),
  content: z.string(),
  banner: blogImageSchema.nullable(),
  /** Set once the post has been public; from then on its slug stays. */
  firstPublishedAt: z.iso.datetime().nullable(),
  updatedBy: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;

export const blogListResponseSchema = okResponse({
  posts: z.array(blogPostSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type BlogListResponse = z.infer<typeof blogListResponseSchema>;
export const blogPostResponseSchema = okResponse({ post: blogPostSchema });
export type BlogPostResponse = z.infer<typeof blogPostResponseSchema>;
export const blogDeleteResponseSchema = okResponse({ message: z.string() });
export const blogImageResponseSchema = okResponse({ image: blogImageSchema });
export type BlogImageResponse = z.infer<typeof blogImageResponseSchema>;

/** The preview: the content as the public page will show it, through the same sanitiser. */
export const blogPreviewSchema = z.object({ content: multiline(storableText()).max(BLOG_LIMITS.content, `The content is too long (at most ${BLOG_LIMITS.content.toLocaleString('en-GB')} characters)`) });
export const blogPreviewResponseSchema = okResponse({ html: z.string() });
export type BlogPreviewResponse = z.infer<typeof blogPreviewResponseSchema>;

/** The slug a title gives: lower-case ASCII words joined by hyphens ('post' when nothing is left). */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, BLOG_LIMITS.slug - 8) // room for a "-2" ... suffix
    .replace(/-+$/g, '');
  return slug || 'post';
}

/** The srcset of a blog image in one format, for <img>/<source>. */
export function blogImageSrcSet(imageId: string, format: BlogImageFormat): string {
  return BLOG_IMAGE_WIDTHS.map((w) => `${blogImageUrl(imageId, w, format)} ${w}w`).join(', ');
}
