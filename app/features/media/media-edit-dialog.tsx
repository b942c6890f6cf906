import { useId, useState, type FormEvent, type MouseEvent } from 'react';
import { MEDIA_MESSAGES, mediaPicture, type MediaItem } from '../../../common/schemas/media.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { AltTextField } from './alt-text-field.tsx';
import { useUpdateMedia } from './media-api.ts';

const clampPercent = (n: number) => Math.min(100, Math.max(0, Math.round(n)));
/** A typed percentage as a point; an empty or half-typed field counts as 0 until it is a number. */
const percentOf = (text: string) => clampPercent(Number(text) || 0);

/** Edits an item's alt text and focal point: a click on the picture sets the point, or the two numbers do. */
export function MediaEditDialog({ item, onClose }: { item: MediaItem; onClose: () => void }) {
  const update = useUpdateMedia();
  const [alt, setAlt] = useState(item.altText);
  // Kept as typed, so clearing a field to type a new number leaves it empty, not '0'.
  const [x, setX] = useState(String(clampPercent(item.focalX * 100)));
  const [y, setY] = useState(String(clampPercent(item.focalY * 100)));
  const [error, setError] = useState<string | null>(null);
  const ids = { help: useId() };
  const picture = mediaPicture(item, '(min-width: 640px) 32rem, 90vw');
  const pdf = item.kind === 'pdf';

  const onPick = (e: MouseEvent<HTMLImageElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    setX(String(clampPercent(((e.clientX - box.left) / box.width) * 100)));
    setY(String(clampPercent(((e.clientY - box.top) / box.height) * 100)));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const altText = alt.trim();
    if (!altText) return setError(MEDIA_MESSAGES.altRequired);
    setError(null);
    try {
      // A PDF has no picture, so no focal point: only its title changes (decision 295).
      await update.mutateAsync({
        id: item._id,
        changes: pdf ? { altText } : { altText, focalX: percentOf(x) / 100, focalY: percentOf(y) / 100 },
      });
      toast({ title: pdf ? 'PDF saved' : 'Image saved' });
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The changes could not be saved');
    }
  }

  return (
    <ModalDialog
      open
      onClose={onClose}
      title={pdf ? 'Edit PDF' : 'Edit image'}
      description={item.originalName}
      size="lg"
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        {pdf ? null : (
          <div>
            <p id={ids.help} className="mb-2 text-sm text-slate-700 dark:text-slate-300">
              Focal point: click the part of the picture that must stay in view when it is cropped, or type its
              position.
            </p>
            <div className="relative mx-auto w-fit max-w-full">
              <picture>
                {picture.sources.map((s) => (
                  <source key={s.type} type={s.type} srcSet={s.srcset} sizes={picture.sizes} />
                ))}
                {/* The numbers below are the keyboard's way to the same point. */}
                <img
                  src={picture.src}
                  width={picture.width}
                  height={picture.height}
                  alt={item.altText}
                  onClick={onPick}
                  className="block h-auto max-h-72 w-auto max-w-full cursor-crosshair rounded-md"
                />
              </picture>
              <span
                aria-hidden="true"
                data-testid="focal-marker"
                className="pointer-events-none absolute size-6 -translate-x-1/2 -translate-y-1/2 rounded-full border-4 border-white bg-brand-700/70 shadow ring-2 ring-slate-900"
                style={{ left: `${percentOf(x)}%`, top: `${percentOf(y)}%` }}
              />
            </div>
            <div className="mt-3 grid grid-cols-2 gap-3">
              <PercentField label="From the left (%)" value={x} onChange={setX} describedBy={ids.help} />
              <PercentField label="From the top (%)" value={y} onChange={setY} describedBy={ids.help} />
            </div>
          </div>
        )}
        <AltTextField label={pdf ? 'Title' : 'Alt text'} value={alt} onChange={setAlt} error={error} />
        <DialogFormActions onCancel={onClose} busy={update.isPending} submitLabel="Save" busyLabel="Saving…" />
      </form>
    </ModalDialog>
  );
}

/** One coordinate of the focal point, a whole percentage. */
function PercentField({
  label,
  value,
  onChange,
  describedBy,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  describedBy: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        max={100}
        step={1}
        value={value}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
      />
    </div>
  );
}
