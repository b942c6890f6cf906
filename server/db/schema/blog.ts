import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BLOG_STATUSES, BLOG_VISIBILITIES } from '../../../common/schemas/blog.ts';
import { users } from './users.ts';

/** One stored rendition of a blog image: a width and a format, under a server-generated key. */
export type BlogImageVariant = { format: 'avif' | 'webp'; width: number; height: number; key: string; size: number };

/**
 * An image uploaded for the blog (a banner or an image inside a post's text): checked by its bytes,
 * stripped of metadata and stored as responsive AVIF/WebP renditions. Uploaded before the post that
 * uses it is saved; images no post refers to are removed by the retention job after a grace period.
 */
export const blogImages = pgTable(
  'blog_images',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    /** The uploader's file name, for alt text suggestions and display only. */
    originalName: text('original_name').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    variants: jsonb('variants').$type<BlogImageVariant[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('blog_images_created_idx').on(t.createdAt)],
);

/** A post of the company's blog, written by staff and shown on /articles once published and visible. */
export const blogPosts = pgTable(
  'blog_posts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    title: text('title').notNull(),
    /** Unique; made from the title, editable, and kept once the post has been published. */
    slug: text('slug').notNull(),
    excerpt: text('excerpt').notNull(),
    /** Sanitised HTML (specification section 5's allowlist), sanitised again when rendered. */
    content: text('content').notNull(),
    author: text('author').notNull(),
    category: text('category').notNull(),
    bannerImageId: uuid('banner_image_id').references(() => blogImages.id, { onDelete: 'set null' }),
    status: text('status', { enum: BLOG_STATUSES }).notNull().default('draft'),
    visibility: text('visibility', { enum: BLOG_VISIBILITIES }).notNull().default('visible'),
    /** The publication date: when it was published, or when a scheduled post goes out. Null for a draft never published. */
    publishAt: timestamp('publish_at', { withTimezone: true }),
    /** Set the first time the post is public; from then on its slug stays. */
    firstPublishedAt: timestamp('first_published_at', { withTimezone: true }),
    /** Optimistic concurrency: a save names the version it edited and is refused if another save came first. */
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blog_posts_slug_unique').on(t.slug),
    // Visitors' list: public posts, newest first.
    index('blog_posts_public_idx').on(t.publishAt).where(sql`${t.status} <> 'draft' and ${t.visibility} = 'visible'`),
    index('blog_posts_updated_idx').on(t.updatedAt),
  ],
);
