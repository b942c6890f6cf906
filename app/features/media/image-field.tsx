import { useId, useState } from 'react';
import { FileText, ImageIcon, X } from 'lucide-react';
import { IMAGE_MANIFEST, type ImageKey } from '../../../common/content/image-manifest.ts';
import { mediaIdOf, mediaRef } from '../../../common/content/media-refs.ts';
import { fileSizeLabel, mediaPdfUrl, mediaPicture } from '../../../common/schemas/media.ts';
import { buttonClass } from '../../components/button-class.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { useMediaItem } from './media-api.ts';
import { MediaPicker } from './media-picker.tsx';

const frame = 'aspect-[4/3] w-32 shrink-0 rounded-md bg-slate-100 object-cover dark:bg-slate-800';

/** What the field names now, drawn small with a line saying what it is (its alt text, or that it is a starting image). */
function Current({ value }: { value: string }) {
  const id = mediaIdOf(value);
  const { data, error } = useMediaItem(id);
  if (id) {
    if (error) return <p className="text-sm font-medium text-red-800 dark:text-red-300">This image is no longer in the media library.</p>;
    if (!data) return <div className={frame} />;
    const picture = mediaPicture(data.item, '8rem');
    return (
      <>
        <picture>
          {picture.sources.map((s) => (
            <source key={s.type} type={s.type} srcSet={s.srcset} sizes={picture.sizes} />
          ))}
          <img src={picture.src} width={picture.width} height={picture.height} alt="" style={{ objectPosition: picture.objectPosition }} className={frame} />
        </picture>
        <p className="text-sm break-words">{data.item.altText}</p>
      </>
    );
  }
  const entry = Object.hasOwn(IMAGE_MANIFEST, value) ? IMAGE_MANIFEST[value as ImageKey] : null;
  if (!entry) {
    return (
      <>
        <div className={`${frame} flex items-center justify-center`}>
          <ImageIcon className="size-8 text-slate-500" aria-hidden="true" />
        </div>
        <p className="text-sm">No image chosen yet</p>
      </>
    );
  }
  const width = entry.widths[0];
  return (
    <>
      <picture>
        <source type="image/avif" srcSet={`/images/${value}-${width}.avif`} />
        <img src={`/images/${value}-${width}.webp`} width={entry.width} height={entry.height} alt="" className={frame} />
      </picture>
      <p className="text-sm">
        Starting image <span className="text-slate-600 dark:text-slate-400">({value})</span>
      </p>
    </>
  );
}

const pdfFrame =
  'flex aspect-[4/3] w-32 shrink-0 flex-col items-center justify-center gap-1 rounded-md bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200';

/** What a PDF field names now: a PDF icon with its size, its title linked to the file (decision 295). */
function CurrentPdf({ value }: { value: string }) {
  const id = mediaIdOf(value);
  const { data, error } = useMediaItem(id);
  if (!id) {
    return (
      <>
        <div className={pdfFrame}>
          <FileText className="size-8 text-slate-500" aria-hidden="true" />
        </div>
        <p className="text-sm">No PDF chosen</p>
      </>
    );
  }
  if (error)
    return (
      <p className="text-sm font-medium text-red-800 dark:text-red-300">This PDF is no longer in the media library.</p>
    );
  if (!data) return <div className={pdfFrame} />;
  return (
    <>
      <div className={pdfFrame}>
        <FileText className="size-8" aria-hidden="true" />
        <span className="text-xs font-semibold">PDF, {fileSizeLabel(data.item.bytes)}</span>
      </div>
      <p className="min-w-0 flex-1 basis-40 text-sm break-words">
        <a
          href={mediaPdfUrl(data.item._id)}
          download
          className="font-medium text-brand-700 underline dark:text-sky-300"
        >
          {data.item.altText}
        </a>
      </p>
    </>
  );
}

/**
 * An image field (issue 24, decision 291): the image it names, and 'Choose image' opening the media
 * picker. The field stores 'media/<uuid>' for a library item; a starting image keeps its manifest key
 * until another is chosen. With `kind` 'pdf' (a certificate's PDF, decision 295) it names a PDF, the
 * picker offers and takes PDFs only, and an optional one can be removed.
 */
export function ImageField({
  label,
  value,
  message,
  onChange,
  kind = 'image',
  optional = false,
}: {
  label: string;
  value: string;
  message?: string;
  onChange: (value: string) => void;
  kind?: 'image' | 'pdf';
  optional?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const noun = kind === 'pdf' ? label : label.toLowerCase();
  return (
    <div role="group" aria-labelledby={`${id}-label`} aria-describedby={message ? `${id}-error` : undefined}>
      <p id={`${id}-label`} className={labelClass}>
        {label}
        {optional ? <span className="font-normal text-slate-600 dark:text-slate-400"> (optional)</span> : null}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {kind === 'pdf' ? <CurrentPdf value={value} /> : <Current value={value} />}
        <button
          type="button"
          className={buttonClass('secondary')}
          aria-describedby={message ? `${id}-error` : undefined}
          onClick={() => setOpen(true)}
        >
          {value ? `Change ${noun}` : `Choose ${noun}`}
        </button>
        {optional && value ? (
          <button type="button" className={buttonClass('secondary')} onClick={() => onChange('')}>
            <X className="size-4" aria-hidden="true" />
            Remove {noun}
          </button>
        ) : null}
      </div>
      {message ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800 dark:text-red-300">
          {message}
        </p>
      ) : null}
      <MediaPicker
        kind={kind}
        open={open}
        currentId={mediaIdOf(value)}
        onClose={() => setOpen(false)}
        onChoose={(item) => {
          onChange(mediaRef(item._id));
          setOpen(false);
        }}
      />
    </div>
  );
}
