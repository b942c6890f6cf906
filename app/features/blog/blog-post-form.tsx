import { lazy, Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { fromZonedInput } from '../../../common/dates.ts';
import { BLOG_CATEGORIES, BLOG_LIMITS, BLOG_MESSAGES, blogImageUrl, slugFromTitle, type BlogPost } from '../../../common/schemas/blog.ts';
import { buttonClass } from '../../components/button-class.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { detailErrors, firstInvalid, type FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, RequiredMark, SelectField, TextAreaField } from '../../components/forms/fields.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { PATHS } from '../../../common/paths.ts';
import { uploadBlogImage, useCreateBlogPost, useUpdateBlogPost } from './blog-api.ts';
import { BLOG_FORM_FIELDS, checkFields, initialValues, sameValues, toFields, type BlogFormField, type BlogFormValues } from './blog-form-state.ts';
import { LeaveGuard } from './blog-leave-guard.tsx';
import { BlogPostSettings } from './blog-post-settings.tsx';
import { BlogPreviewDialog } from './blog-preview-dialog.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('blog-post');

// The editor is a chunk of its own, fetched only when a blog form opens (decision 090).
const BlogEditor = lazy(() => import('./blog-editor.tsx'));
const EDITOR_ID = 'blog-content-editor';
const CATEGORY_OPTIONS = BLOG_CATEGORIES.map((c) => ({ value: c, label: c }));

/**
 * The create and edit form of a blog post: the specification's required fields, the banner, the
 * rich-text content, status (with a time for a scheduled post) and visibility; a preview; a
 * version check on save; and a question before leaving with unsaved changes. Built the way every
 * hydrated form is (decision 235): the shared fields, checked by the shared zod schema.
 */
export function BlogPostForm({ post, onReload, defaultAuthor }: { post: BlogPost | null; onReload?: () => void; defaultAuthor?: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [initial, setInitial] = useState(() => initialValues(post, defaultAuthor));
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<BlogFormField>>({});
  const [conflict, setConflict] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [slugEdited, setSlugEdited] = useState(post !== null);
  const bannerInput = useRef<HTMLInputElement>(null);
  const create = useCreateBlogPost();
  const update = useUpdateBlogPost(post?._id ?? '');
  const saving = create.isPending || update.isPending;
  // Set the moment a save succeeds: the way back to the list is then not blocked.
  const saved = useRef(false);
  const slugLocked = post !== null && (post.firstPublishedAt !== null || post.status === 'published');

  const set = <K extends keyof BlogFormValues>(key: K, value: BlogFormValues[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    // An error belongs to the value it was about (issue 21).
    setErrors((e) => (key in e ? { ...e, [key]: undefined } : e));
  };
  const fieldId = (f: BlogFormField) => (f === 'content' ? EDITOR_ID : `${id}-${f}`);

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

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (saving) return;
    const fields = toFields(form, slugLocked && post ? post.slug : null);
    const found = checkFields(fields, new Date());
    setErrors(found);
    const first = firstInvalid(BLOG_FORM_FIELDS, found);
    if (first) {
      document.getElementById(fieldId(first))?.focus();
      toasts.show({ title: 'Please fill in required fields', description: found[first], variant: 'destructive' });
      return;
    }
    try {
      if (post) await update.mutateAsync({ ...fields, version: post.version });
      else await create.mutateAsync(fields);
      saved.current = true;
      toasts.show(post ? BLOG_MESSAGES.updated : BLOG_MESSAGES.created);
      navigate(PATHS.blogList);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 409) setConflict(true);
      else setErrors(detailErrors<BlogFormField>(err));
      toastFailure(BLOG_MESSAGES.saveFailed, err);
    }
  }

  const previewDate = form.status === 'scheduled' ? (fromZonedInput(form.publishAt) ?? new Date().toISOString()) : (post?.publishAt ?? new Date().toISOString());

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
          <InputField
            id={fieldId('title')}
            label="Title"
            required
            value={form.title}
            maxLength={BLOG_LIMITS.title}
            error={errors.title}
            onChange={(e) => {
              const title = e.target.value;
              set('title', title);
              if (!slugEdited && !slugLocked) set('slug', title.trim() ? slugFromTitle(title) : '');
            }}
          />
          <InputField
            id={fieldId('slug')}
            label="Slug (web address)"
            value={form.slug}
            readOnly={slugLocked}
            maxLength={BLOG_LIMITS.slug}
            inputClassName="read-only:bg-slate-100 dark:read-only:bg-slate-800"
            error={errors.slug}
            hint={
              slugLocked
                ? 'The address stays the same once a post has been published, so links to it keep working.'
                : 'Made from the title; you may change it until the post is published. Lower-case letters, digits and hyphens.'
            }
            onChange={(e) => {
              setSlugEdited(true);
              set('slug', e.target.value.toLowerCase());
            }}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <InputField id={fieldId('author')} label="Author" required value={form.author} maxLength={BLOG_LIMITS.author} autoComplete="off" error={errors.author} onChange={(e) => set('author', e.target.value)} />
            <SelectField
              id={fieldId('category')}
              label="Category"
              required
              value={form.category}
              options={CATEGORY_OPTIONS}
              placeholder="Choose a category"
              error={errors.category}
              onChange={(e) => set('category', e.target.value)}
            />
          </div>
          <TextAreaField
            id={fieldId('excerpt')}
            label="Excerpt"
            required
            rows={3}
            value={form.excerpt}
            maxLength={BLOG_LIMITS.excerpt}
            error={errors.excerpt}
            hint={`A short summary for the article cards, at most ${BLOG_LIMITS.excerpt} characters (${form.excerpt.length} used).`}
            onChange={(e) => set('excerpt', e.target.value)}
          />
          <div>
            <p id={`${id}-content-label`} className={labelClass}>
              Content
              <RequiredMark />
            </p>
            <Suspense fallback={<p className="min-h-72 rounded-md border border-slate-400 p-4 text-sm text-slate-600 dark:border-slate-500 dark:text-slate-300">Loading the editor...</p>}>
              <BlogEditor
                initialContent={initial.content}
                onChange={(html) => set('content', html)}
                labelledBy={`${id}-content-label`}
                describedBy={errors.content ? `${id}-content-error` : undefined}
                invalid={Boolean(errors.content)}
                uploadImage={uploadInline}
              />
            </Suspense>
            {errors.content ? (
              <p id={`${id}-content-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
                {errors.content}
              </p>
            ) : null}
          </div>
        </div>

        <BlogPostSettings
          form={form}
          set={set}
          publishAtId={fieldId('publishAt')}
          publishAtError={errors.publishAt}
          uploading={uploading}
          onBanner={(file) => void onBanner(file)}
          bannerInput={bannerInput}
          saving={saving}
          editing={post !== null}
          onPreview={() => setPreviewing(true)}
        />
      </div>

      <BlogPreviewDialog
        open={previewing}
        onClose={() => setPreviewing(false)}
        post={{ title: form.title, author: form.author, category: form.category, content: form.content, banner: form.banner, date: previewDate }}
      />
      <LeaveGuard dirty={!sameValues(form, initial)} saved={saved} />
    </form>
  );
}
