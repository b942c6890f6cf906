import { fromZonedInput, toZonedInput } from '../../../common/dates.ts';
import { blogPostFieldsSchema, type BlogImage, type BlogPost, type BlogPostFields, type BlogStatus, type BlogVisibility } from '../../../common/schemas/blog.ts';
import { schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';

/** The fields a message can be about, in the order the form shows them (focus goes to the first). */
export const BLOG_FORM_FIELDS = ['title', 'slug', 'author', 'category', 'excerpt', 'content', 'bannerImageId', 'publishAt'] as const;
export type BlogFormField = (typeof BLOG_FORM_FIELDS)[number];
type TextField = Exclude<BlogFormField, 'bannerImageId' | 'publishAt'>;
const TEXT_FIELDS = BLOG_FORM_FIELDS.filter((f): f is TextField => f !== 'bannerImageId' && f !== 'publishAt');

/** What the form holds: the text fields as typed, the banner itself, and the publication time as the input shows it (Lagos time). */
export type BlogFormValues = Record<TextField, string> & {
  banner: BlogImage | null;
  status: BlogStatus;
  visibility: BlogVisibility;
  publishAt: string;
};

export function initialValues(post: BlogPost | null, defaultAuthor = ''): BlogFormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, post?.[f] ?? ''])) as Record<TextField, string>;
  return {
    ...text,
    author: post?.author ?? defaultAuthor,
    banner: post?.banner ?? null,
    status: post?.status ?? 'draft',
    visibility: post?.visibility ?? 'visible',
    publishAt: post?.status === 'scheduled' ? toZonedInput(post.publishAt) : '',
  };
}

export const sameValues = (a: BlogFormValues, b: BlogFormValues) => JSON.stringify(a) === JSON.stringify(b);

/** The values as the API reads them; a published post keeps its slug. */
export function toFields(form: BlogFormValues, lockedSlug: string | null): BlogPostFields {
  return {
    title: form.title,
    slug: lockedSlug ?? (form.slug.trim() || undefined),
    author: form.author,
    category: form.category as BlogPostFields['category'],
    excerpt: form.excerpt,
    content: form.content,
    bannerImageId: form.banner?._id ?? null,
    status: form.status,
    visibility: form.visibility,
    publishAt: form.status === 'scheduled' ? fromZonedInput(form.publishAt) : null,
  };
}

/** The shared schema's messages, and the one check only the browser makes: a schedule lies in the future. */
export function checkFields(fields: BlogPostFields, now: Date): FieldErrors<BlogFormField> {
  const errors = schemaErrors<BlogFormField>(blogPostFieldsSchema, fields);
  if (fields.status === 'scheduled' && fields.publishAt && new Date(fields.publishAt) <= now) {
    errors.publishAt ??= 'Choose a time in the future, or Published to publish now';
  }
  return errors;
}
