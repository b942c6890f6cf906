import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * One stored file of a media item, under a server-generated key: an image's AVIF or WebP rendition at
 * one width, or a PDF item's one file as uploaded ('pdf', width and height 0: decision 295). Listing
 * the PDF here keeps it named for the sweep of unnamed files, which reads these keys.
 */
export type MediaVariant = { format: 'avif' | 'webp' | 'pdf'; width: number; height: number; key: string; size: number };

/**
 * An image of the media library (decision 286): checked by its bytes, re-encoded without metadata
 * into AVIF/WebP renditions at upload, which are the only files kept (the original, with its EXIF,
 * is not). The renditions are written once and removed with the row, so they live in it as a list.
 */
export const mediaItems = pgTable(
  'media_items',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    /** The uploader's file name, shown to staff only. */
    originalName: text('original_name').notNull(),
    /** The sniffed type of the upload (never the declared one). */
    mime: text('mime').notNull(),
    /** Upright size of the upload: the largest rendition is never wider. */
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Size of the upload as received. */
    bytes: integer('bytes').notNull(),
    altText: text('alt_text').notNull(),
    /** Where a crop keeps its centre, 0..1 from the left and the top. */
    focalX: real('focal_x').notNull().default(0.5),
    focalY: real('focal_y').notNull().default(0.5),
    variants: jsonb('variants').$type<MediaVariant[]>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('media_items_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('media_items_alt_text_present', sql`length(btrim(${t.altText})) > 0`),
    check('media_items_focal_range', sql`${t.focalX} between 0 and 1 and ${t.focalY} between 0 and 1`),
  ],
);

/**
 * Where an item is used: one row per place (`used_in`, a stable key such as 'team-member:<id>') and
 * item, with the words staff read ('Team: Ada Obi'). The foreign key refuses (RESTRICT) the deletion
 * of an item still used, even by a publish that commits while the delete runs.
 */
export const mediaUsages = pgTable(
  'media_usages',
  {
    mediaId: uuid('media_id')
      .notNull()
      .references(() => mediaItems.id, { onDelete: 'restrict' }),
    usedIn: text('used_in').notNull(),
    label: text('label').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.usedIn] }), index('media_usages_used_in_idx').on(t.usedIn)],
);
