import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { Upload } from 'lucide-react';
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaItem, type MediaKind } from '../../../common/schemas/media.ts';
import { buttonClass } from '../../components/button-class.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { toast } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { AltTextField } from './alt-text-field.tsx';
import { useUploadMedia } from './media-api.ts';

const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/avif';
/** What the file input offers, the words around it, by the kind the form takes (any: the library's own form). */
const KINDS = {
  any: {
    accept: `${IMAGE_TYPES},application/pdf,.pdf`,
    heading: 'Upload an image or a PDF',
    file: 'Image or PDF file',
    types: 'JPEG, PNG, WebP, AVIF or PDF',
    noFile: 'Please choose a file',
  },
  image: {
    accept: IMAGE_TYPES,
    heading: 'Upload an image',
    file: 'Image file',
    types: 'JPEG, PNG, WebP or AVIF',
    noFile: MEDIA_MESSAGES.noFile,
  },
  pdf: {
    accept: 'application/pdf,.pdf',
    heading: 'Upload a PDF',
    file: 'PDF file',
    types: 'A PDF',
    noFile: 'Please choose a PDF file',
  },
} as const;
const MAX_MB = MEDIA_MAX_BYTES / (1024 * 1024);

/** The field message the server gave for the alt text, if the refusal was about it. */
function altMessageOf(err: unknown): string | null {
  if (!(err instanceof ApiRequestError) || !Array.isArray(err.details)) return null;
  const detail = (err.details as { field?: string; message?: string }[]).find((d) => d.field === 'altText');
  return detail?.message ?? null;
}

/**
 * Upload one image or PDF: chosen with the file input or dropped on the zone, with its alt text
 * (a PDF's: its title). In the media picker (decision 291) the heading is a level lower, the form
 * takes the picker's kind only (decision 295) and the new item is handed on.
 */
export function MediaUpload({
  onUploaded,
  inDialog = false,
  kind,
}: { onUploaded?: (item: MediaItem) => void; inDialog?: boolean; kind?: MediaKind } = {}) {
  const words = KINDS[kind ?? 'any'];
  const upload = useUploadMedia();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [altError, setAltError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { file: useId(), fileHelp: useId(), fileError: useId(), heading: useId() };
  const Heading = inDialog ? 'h3' : 'h2';

  const choose = (chosen: File | undefined) => {
    setFile(chosen ?? null);
    setFileError(null);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const altText = alt.trim();
    setAltError(altText ? null : MEDIA_MESSAGES.altRequired);
    setFileError(file ? null : words.noFile);
    if (!altText || !file) return;
    try {
      const { item } = await upload.mutateAsync({ file, altText, kind });
      toast({ title: item.kind === 'pdf' ? 'PDF uploaded' : 'Image uploaded', description: file.name });
      onUploaded?.(item);
      setFile(null);
      setAlt('');
      if (input.current) input.current.value = '';
    } catch (err) {
      const altMessage = altMessageOf(err);
      if (altMessage) setAltError(altMessage);
      else setFileError(err instanceof Error ? err.message : 'The file could not be uploaded');
    }
  }

  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby={ids.heading}
      className={inDialog ? 'rounded-lg border border-slate-200 p-3 sm:p-4 dark:border-slate-700' : 'rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900'}
    >
      <Heading id={ids.heading} className={inDialog ? 'mb-3 text-base font-semibold' : 'mb-3 text-lg font-semibold'}>
        {words.heading}
      </Heading>
      <div className={inDialog ? 'grid gap-4' : 'grid gap-4 md:grid-cols-2'}>
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={clsx(
            'flex flex-col items-start gap-2 rounded-lg border-2 border-dashed p-4',
            dragging ? 'border-brand-700 bg-brand-50 dark:border-sky-300 dark:bg-slate-800' : 'border-slate-300 dark:border-slate-600',
          )}
        >
          <label htmlFor={ids.file} className={labelClass}>
            {words.file}
          </label>
          <input
            ref={input}
            id={ids.file}
            type="file"
            accept={words.accept}
            aria-describedby={clsx(ids.fileHelp, fileError && ids.fileError)}
            aria-invalid={fileError ? true : undefined}
            onChange={(e) => choose(e.target.files?.[0])}
            className="block w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border-0 file:bg-slate-200 file:px-3 file:font-semibold file:text-slate-900 dark:file:bg-slate-700 dark:file:text-slate-100"
          />
          <p id={ids.fileHelp} className="text-sm text-slate-600 dark:text-slate-300">
            Or drop it here. {words.types}, up to {MAX_MB} MB.{' '}
            {file ? <strong className="break-all">Chosen: {file.name}</strong> : null}
          </p>
          {fileError ? (
            <p id={ids.fileError} className="text-sm font-medium text-red-700 dark:text-red-300">
              {fileError}
            </p>
          ) : null}
        </div>
        <AltTextField
          label={kind === 'pdf' ? 'Title' : 'Alt text'}
          value={alt}
          onChange={setAlt}
          error={altError}
          help={
            kind === 'pdf'
              ? 'The title visitors read for the PDF (what it is, who issued it).'
              : 'What the picture shows, for people who cannot see it; for a PDF, its title.'
          }
        />
      </div>
      <div className="mt-4 flex items-center gap-3">
        <button type="submit" className={buttonClass('primary')} disabled={upload.isPending} aria-describedby={upload.isPending ? `${ids.file}-busy` : undefined}>
          <Upload className="size-4" aria-hidden="true" />
          {upload.isPending ? 'Uploading…' : 'Upload'}
        </button>
        <span id={`${ids.file}-busy`} role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {upload.isPending ? (kind === 'pdf' ? 'Uploading…' : 'Uploading and making the sizes for every screen…') : ''}
        </span>
      </div>
    </form>
  );
}
