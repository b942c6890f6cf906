import { useId, type ReactNode, type RefObject } from 'react';
import { Eye, ImageUp, Save, Trash2 } from 'lucide-react';
import { COMPANY_TIME_ZONE } from '../../../common/dates.ts';
import {
  BLOG_IMAGE_MAX_BYTES,
  BLOG_IMAGE_TYPES,
  BLOG_STATUS_LABELS,
  BLOG_STATUSES,
  BLOG_VISIBILITIES,
  BLOG_VISIBILITY_LABELS,
} from '../../../common/schemas/blog.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField } from '../../components/forms/fields.tsx';
import { BlogPicture } from './blog-banner.tsx';
import type { BlogFormValues } from './blog-form-state.ts';

const cardClass = 'rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';
const BANNER_HINT = `JPEG, PNG, WebP or AVIF, at most ${BLOG_IMAGE_MAX_BYTES / (1024 * 1024)} MB.`;

/** A titled group of radio buttons, one per choice. */
function RadioCard<V extends string>({ legend, name, choices, labels, value, onChange, children }: {
  legend: string;
  name: string;
  choices: readonly V[];
  labels: Record<V, string>;
  value: V;
  onChange: (value: V) => void;
  children?: ReactNode;
}) {
  return (
    <fieldset className={cardClass}>
      <legend className="px-1 text-base font-semibold">{legend}</legend>
      <div className="grid gap-1">
        {choices.map((c) => (
          <label key={c} className="flex min-h-11 items-center gap-3 text-sm">
            <input type="radio" name={name} value={c} checked={value === c} onChange={() => onChange(c)} className="size-4 accent-brand-700" />
            {labels[c]}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}

interface SettingsProps {
  form: BlogFormValues;
  set: <K extends keyof BlogFormValues>(key: K, value: BlogFormValues[K]) => void;
  publishAtId: string;
  publishAtError?: string;
  uploading: boolean;
  onBanner: (file: File | undefined) => void;
  bannerInput: RefObject<HTMLInputElement | null>;
  saving: boolean;
  editing: boolean;
  onPreview: () => void;
}

/** The side column of the blog form: banner, status (with the time of a scheduled post), visibility, and the buttons. */
export function BlogPostSettings({ form, set, publishAtId, publishAtError, uploading, onBanner, bannerInput, saving, editing, onPreview }: SettingsProps) {
  const id = useId();
  return (
    <div className="grid content-start gap-5">
      <fieldset className={cardClass}>
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
          accept={BLOG_IMAGE_TYPES.join(',')}
          className="sr-only"
          disabled={uploading}
          aria-describedby={`${id}-banner-hint`}
          onChange={(e) => onBanner(e.target.files?.[0])}
        />
        <p id={`${id}-banner-hint`} className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {BANNER_HINT}
        </p>
        {form.banner ? (
          <button type="button" className={`${buttonClass('danger')} mt-2 w-full`} onClick={() => set('banner', null)}>
            <Trash2 className="size-4" aria-hidden="true" />
            Remove banner
          </button>
        ) : null}
      </fieldset>

      <RadioCard legend="Status" name={`${id}-status`} choices={BLOG_STATUSES} labels={BLOG_STATUS_LABELS} value={form.status} onChange={(s) => set('status', s)}>
        {form.status === 'scheduled' ? (
          <InputField
            id={publishAtId}
            className="mt-3"
            label="Publish at"
            type="datetime-local"
            required
            value={form.publishAt}
            error={publishAtError}
            hint={`The post goes out by itself at this time (${COMPANY_TIME_ZONE} time).`}
            onChange={(e) => set('publishAt', e.target.value)}
          />
        ) : null}
      </RadioCard>

      <RadioCard legend="Visibility" name={`${id}-visibility`} choices={BLOG_VISIBILITIES} labels={BLOG_VISIBILITY_LABELS} value={form.visibility} onChange={(v) => set('visibility', v)} />

      <div className="grid gap-2">
        <button type="button" className={buttonClass('secondary')} onClick={onPreview}>
          <Eye className="size-4" aria-hidden="true" />
          Preview
        </button>
        <button type="submit" className={buttonClass('primary')} disabled={saving || uploading}>
          <Save className="size-4" aria-hidden="true" />
          {saving ? 'Saving...' : editing ? 'Save changes' : 'Create post'}
        </button>
      </div>
    </div>
  );
}
