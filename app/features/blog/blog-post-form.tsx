import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { Eye, ImageUp, Save, Trash2 } from 'lucide-react';
import {
  BLOG_CATEGORIES,
  BLOG_LIMITS,
  BLOG_MESSAGES,
  BLOG_STATUS_LABELS,
  BLOG_STATUSES,
  BLOG_VISIBILITIES,
  BLOG_VISIBILITY_LABELS,
  blogImageUrl,
  blogPostFieldsSchema,
  slugFromTitle,
  type BlogImage,
  type BlogPost,
  type BlogPostFields,
  type BlogStatus,
  type BlogVisibility,
} from '../../../common/schemas/blog.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { PATHS } from '../../../common/paths.ts';
import { uploadBlogImage, useCreateBlogPost, useUpdateBlogPost } from './blog-api.ts';
import { BlogPicture } from './blog-banner.tsx';
import { fromLocalInput, toLocalInput } from './blog-dates.ts';
import { BlogPreviewDialog } from './blog-preview-dialog.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('blog-post');

// The editor is a chunk of its own, fetched only when a blog form opens (decision 090).
const BlogEditor = lazy(() => import('./blog-editor.tsx'));

interface FormState {
  title: string;
  slug: string;
  author: string;
  category: string;
  excerpt: string;
  content: string;
  banner: BlogImage | null;
  status: BlogStatus;
  visibility: BlogVisibility;
  publishAt: string;
}
type Field = 'title' | 'slug' | 'author' | 'category' | 'excerpt' | 'content' | 'bannerImageId' | 'publishAt';

function initialState(post: BlogPost | null, defaultAuthor = ''): FormState {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    author: post?.author ?? defaultAuthor,
    category: post?.category ?? '',
    excerpt: post?.excerpt ?? '',
    content: post?.content ?? '',
    banner: post?.banner ?? null,
    status: post?.status ?? 'draft',
    visibility: post?.visibility ?? 'visible',
    publishAt: post?.status === 'scheduled' ? toLocalInput(post.publishAt) : '',
  };
}

const same = (a: FormState, b: FormState) => JSON.stringify(a) === JSON.stringify(b);

/** Asks before leaving the form with unsaved changes: in-app navigation (a dialog) and closing the tab (the browser's prompt). */
function useLeaveGuard(dirty: boolean, saved: { current: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !saved.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return blocker;
}

function FieldBlock({ id, label, hint, error, children }: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The create and edit form of a blog post: the specification's required fields, the banner, the
 * rich-text content, status (with a time for a scheduled post) and visibility; a preview; a
 * version check on save; and a question before leaving with unsaved changes.
 */
export function BlogPostForm({ post, onReload, defaultAuthor }: { post: BlogPost | null; onReload?: () => void; defaultAuthor?: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [initial, setInitial] = useState(() => initialState(post, defaultAuthor));
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [conflict, setConflict] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [slugEdited, setSlugEdited] = useState(post !== null);
  const bannerInput = useRef<HTMLInputElement>(null);
  const create = useCreateBlogPost();
  const update = useUpdateBlogPost(post?._id ?? '');
  const saving = create.isPending || update.isPending;
  const dirty = !same(form, initial);
  // Set the moment a save succeeds: the way back to the list is then not blocked.
  const saved = useRef(false);
  const blocker = useLeaveGuard(dirty, saved);
  const slugLocked = post !== null && (post.firstPublishedAt !== null || post.status === 'published');

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    // An error belongs to the value it was about (issue 21).
    setErrors((e) => (key in e ? { ...e, [key]: undefined } : e));
  };
  const fieldId = (f: Field) => `${id}-${f}`;
  const described = (f: Field, hint = false) => [hint ? `${fieldId(f)}-hint` : '', errors[f] ? `${fieldId(f)}-error` : ''].filter(Boolean).join(' ') || undefined;

  async function onBanner(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    try {
      const { image } = await uploadBlogImage(file);
      const replaced = form.banner !== null;
      set('banner', image);
      setErrors((e) => ({ ...e, bannerImageId: undefined }));
      toasts.show(replaced ? BLOG_MESSAGES.imageUpdated : BLOG_MESSAGES.imageUploaded);
    } catch (err) {
      toastFailure(BLOG_MESSAGES.uploadFailed, err);
    } finally {
      setUploading(false);
      if (bannerInput.current) bannerInput.current.value = '';
    }
  }

  const uploadInline = async (file: File) => blogImageUrl((await uploadBlogImage(file)).image._id, 960, 'webp');

  /** The fields as the API reads them, or null after showing what is wrong. */
  function validFields(): BlogPostFields | null {
    const fields: BlogPostFields = {
      title: form.title,
      slug: slugLocked ? post?.slug : form.slug.trim() || undefined,
      author: form.author,
      category: form.category as BlogPostFields['category'],
      excerpt: form.excerpt,
      content: form.content,
      bannerImageId: form.banner?._id ?? null,
      status: form.status,
      visibility: form.visibility,
      publishAt: form.status === 'scheduled' ? fromLocalInput(form.publishAt) : null,
    };
    const next: Partial<Record<Field, string>> = {};
    const parsed = blogPostFieldsSchema.safeParse(fields);
    if (!parsed.success) for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
    if (form.status === 'scheduled' && fields.publishAt && new Date(fields.publishAt) <= new Date()) {
      next.publishAt = 'Choose a time in the future, or Published to publish now';
    }
    setErrors(next);
    const first = (['title', 'slug', 'author', 'category', 'excerpt', 'content', 'publishAt'] as const).find((f) => next[f]);
    if (!first) return fields;
    const target = first === 'content' ? document.getElementById('blog-content-editor') : document.getElementById(fieldId(first));
    target?.focus();
    toasts.show({ title: 'Please fill in required fields', description: next[first], variant: 'destructive' });
    return null;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (saving) return;
    const fields = validFields();
    if (!fields) return;
    try {
      if (post) await update.mutateAsync({ ...fields, version: post.version });
      else await create.mutateAsync(fields);
      saved.current = true;
      toasts.show(post ? BLOG_MESSAGES.updated : BLOG_MESSAGES.created);
      navigate(PATHS.blogList);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 409) {
        setConflict(true);
        toastFailure(BLOG_MESSAGES.saveFailed, err);
        return;
      }
      if (err instanceof ApiRequestError && Array.isArray(err.details)) {
        const next: Partial<Record<Field, string>> = {};
        for (const d of err.details as Array<{ field?: string; message?: string }>) {
          const f = d.field?.split('.').pop() as Field | undefined;
          if (f && d.message) next[f] ??= d.message;
        }
        setErrors(next);
      }
      toastFailure(BLOG_MESSAGES.saveFailed, err);
    }
  }

  const previewDate = form.status === 'scheduled' ? (fromLocalInput(form.publishAt) ?? new Date().toISOString()) : (post?.publishAt ?? new Date().toISOString());

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-6" aria-label={post ? 'Edit blog post' : 'New blog post'}>
      {conflict ? (
        <div role="alert" className="rounded-lg border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          <p className="font-semibold">{BLOG_MESSAGES.versionConflict}</p>
          <p className="mt-1">Copy anything you want to keep before reloading: reloading replaces your changes with the saved post.</p>
          {onReload ? (
            <button
              type="button"
              className={`${buttonClass('secondary')} mt-3`}
              onClick={() => {
                setInitial(form); // the changes are given up on purpose
                setConflict(false);
                onReload();
              }}
            >
              Reload the post
            </button>
          ) : null}
        </div>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 content-start gap-5 rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
          <FieldBlock id={fieldId('title')} label="Title" error={errors.title}>
            <input
              id={fieldId('title')}
              className={inputClass}
              value={form.title}
              maxLength={BLOG_LIMITS.title}
              required
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={described('title')}
              onChange={(e) => {
                const title = e.target.value;
                setForm((f) => ({ ...f, title, slug: slugEdited || slugLocked ? f.slug : title.trim() ? slugFromTitle(title) : '' }));
                setErrors((er) => ({ ...er, title: undefined }));
              }}
            />
          </FieldBlock>
          <FieldBlock
            id={fieldId('slug')}
            label="Slug (web address)"
            error={errors.slug}
            hint={
              slugLocked
                ? 'The address stays the same once a post has been published, so links to it keep working.'
                : 'Made from the title; you may change it until the post is published. Lower-case letters, digits and hyphens.'
            }
          >
            <input
              id={fieldId('slug')}
              className={`${inputClass} read-only:bg-slate-100 dark:read-only:bg-slate-800`}
              value={form.slug}
              readOnly={slugLocked}
              maxLength={BLOG_LIMITS.slug}
              aria-invalid={errors.slug ? true : undefined}
              aria-describedby={described('slug', true)}
              onChange={(e) => {
                setSlugEdited(true);
                set('slug', e.target.value.toLowerCase());
              }}
            />
          </FieldBlock>
          <div className="grid gap-5 sm:grid-cols-2">
            <FieldBlock id={fieldId('author')} label="Author" error={errors.author}>
              <input
                id={fieldId('author')}
                className={inputClass}
                value={form.author}
                maxLength={BLOG_LIMITS.author}
                required
                autoComplete="off"
                aria-invalid={errors.author ? true : undefined}
                aria-describedby={described('author')}
                onChange={(e) => set('author', e.target.value)}
              />
            </FieldBlock>
            <FieldBlock id={fieldId('category')} label="Category" error={errors.category}>
              <select
                id={fieldId('category')}
                className={inputClass}
                value={form.category}
                required
                aria-invalid={errors.category ? true : undefined}
                aria-describedby={described('category')}
                onChange={(e) => set('category', e.target.value)}
              >
                <option value="">Choose a category</option>
                {BLOG_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </FieldBlock>
          </div>
          <FieldBlock id={fieldId('excerpt')} label="Excerpt" error={errors.excerpt} hint={`A short summary for the article cards, at most ${BLOG_LIMITS.excerpt} characters (${form.excerpt.length} used).`}>
            <textarea
              id={fieldId('excerpt')}
              className={inputClass}
              rows={3}
              value={form.excerpt}
              maxLength={BLOG_LIMITS.excerpt}
              required
              aria-invalid={errors.excerpt ? true : undefined}
              aria-describedby={described('excerpt', true)}
              onChange={(e) => set('excerpt', e.target.value)}
            />
          </FieldBlock>
          <div>
            <p id={`${id}-content-label`} className={labelClass}>
              Content
            </p>
            <Suspense fallback={<p className="min-h-72 rounded-md border border-slate-400 p-4 text-sm text-slate-600 dark:border-slate-500 dark:text-slate-300">Loading the editor...</p>}>
              <BlogEditor
                initialContent={initial.content}
                onChange={(html) => set('content', html)}
                labelledBy={`${id}-content-label`}
                describedBy={errors.content ? `${fieldId('content')}-error` : undefined}
                invalid={Boolean(errors.content)}
                uploadImage={uploadInline}
              />
            </Suspense>
            {errors.content ? (
              <p id={`${fieldId('content')}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
                {errors.content}
              </p>
            ) : null}
          </div>
        </div>

        <div className="grid content-start gap-5">
          <fieldset className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <legend className="px-1 text-base font-semibold">Banner image</legend>
            {form.banner ? (
              <BlogPicture image={form.banner} alt="Banner preview" sizes="320px" className="aspect-video h-auto w-full rounded-lg object-cover" />
            ) : (
              <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">No banner yet.</p>
            )}
            <label htmlFor={`${id}-banner`} className={`${buttonClass('secondary')} mt-3 w-full cursor-pointer has-[:disabled]:opacity-60`}>
              <ImageUp className="size-4" aria-hidden="true" />
              {uploading ? 'Uploading...' : form.banner ? 'Replace banner' : 'Upload banner'}
            </label>
            <input
              id={`${id}-banner`}
              ref={bannerInput}
              type="file"
              accept="image/jpeg,image/png,image/webp,image/avif"
              className="sr-only"
              disabled={uploading}
              aria-describedby={`${id}-banner-hint`}
              onChange={(e) => void onBanner(e.target.files?.[0])}
            />
            <p id={`${id}-banner-hint`} className="mt-2 text-sm text-slate-600 dark:text-slate-300">
              JPEG, PNG, WebP or AVIF, at most 10 MB.
            </p>
            {form.banner ? (
              <button type="button" className={`${buttonClass('danger')} mt-2 w-full`} onClick={() => set('banner', null)}>
                <Trash2 className="size-4" aria-hidden="true" />
                Remove banner
              </button>
            ) : null}
          </fieldset>

          <fieldset className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <legend className="px-1 text-base font-semibold">Status</legend>
            <div className="grid gap-1">
              {BLOG_STATUSES.map((s) => (
                <label key={s} className="flex min-h-11 items-center gap-3 text-sm">
                  <input type="radio" name={`${id}-status`} value={s} checked={form.status === s} onChange={() => set('status', s)} className="size-4 accent-brand-700" />
                  {BLOG_STATUS_LABELS[s]}
                </label>
              ))}
            </div>
            {form.status === 'scheduled' ? (
              <FieldBlock id={fieldId('publishAt')} label="Publish at" error={errors.publishAt} hint="The post goes out by itself at this time.">
                <input
                  id={fieldId('publishAt')}
                  type="datetime-local"
                  className={inputClass}
                  value={form.publishAt}
                  required
                  aria-invalid={errors.publishAt ? true : undefined}
                  aria-describedby={described('publishAt', true)}
                  onChange={(e) => set('publishAt', e.target.value)}
                />
              </FieldBlock>
            ) : null}
          </fieldset>

          <fieldset className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <legend className="px-1 text-base font-semibold">Visibility</legend>
            <div className="grid gap-1">
              {BLOG_VISIBILITIES.map((v) => (
                <label key={v} className="flex min-h-11 items-center gap-3 text-sm">
                  <input
                    type="radio"
                    name={`${id}-visibility`}
                    value={v}
                    checked={form.visibility === v}
                    onChange={() => set('visibility', v)}
                    className="size-4 accent-brand-700"
                  />
                  {BLOG_VISIBILITY_LABELS[v]}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="grid gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => setPreviewing(true)}>
              <Eye className="size-4" aria-hidden="true" />
              Preview
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={saving || uploading}>
              <Save className="size-4" aria-hidden="true" />
              {saving ? 'Saving...' : post ? 'Save changes' : 'Create post'}
            </button>
          </div>
        </div>
      </div>

      <BlogPreviewDialog
        open={previewing}
        onClose={() => setPreviewing(false)}
        post={{ title: form.title, author: form.author, category: form.category, content: form.content, banner: form.banner, date: previewDate }}
      />

      <ModalDialog
        open={blocker.state === 'blocked'}
        onClose={() => {
          if (blocker.state === 'blocked') blocker.reset();
        }}
        title="Leave without saving?"
        description="Your changes to this post have not been saved. If you leave now, they are lost."
      >
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass('secondary')} onClick={() => blocker.reset?.()}>
            Stay on this page
          </button>
          <button type="button" className="inline-flex min-h-11 items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 dark:bg-red-400 dark:text-slate-950" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </button>
        </div>
      </ModalDialog>
    </form>
  );
}
