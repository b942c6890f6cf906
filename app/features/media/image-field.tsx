import { useId, useState } from 'react';
import { ImageIcon } from 'lucide-react';
import { IMAGE_MANIFEST, type ImageKey } from '../../../common/content/image-manifest.ts';
import { mediaIdOf, mediaRef } from '../../../common/content/media-refs.ts';
import { mediaPicture } from '../../../common/schemas/media.ts';
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

/**
 * An image field (issue 24, decision 291): the image it names, and 'Choose image' opening the media
 * picker. The field stores 'media/<uuid>' for a library item; a starting image keeps its manifest key
 * until another is chosen.
 */
export function ImageField({ label, value, message, onChange }: { label: string; value: string; message?: string; onChange: (value: string) => void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div role="group" aria-labelledby={`${id}-label`} aria-describedby={message ? `${id}-error` : undefined}>
      <p id={`${id}-label`} className={labelClass}>
        {label}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Current value={value} />
        <button
          type="button"
          className={buttonClass('secondary')}
          aria-describedby={message ? `${id}-error` : undefined}
          onClick={() => setOpen(true)}
        >
          {value ? `Change ${label.toLowerCase()}` : `Choose ${label.toLowerCase()}`}
        </button>
      </div>
      {message ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800 dark:text-red-300">
          {message}
        </p>
      ) : null}
      <MediaPicker
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
