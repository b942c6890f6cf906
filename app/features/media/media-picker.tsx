import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { Check, FileText, ImageIcon } from 'lucide-react';
import {
  fileSizeLabel,
  MEDIA_PAGE_SIZE,
  mediaPicture,
  type MediaItem,
  type MediaKind,
} from '../../../common/schemas/media.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { pageCount } from '../../lib/list-params.ts';
import { useMediaList } from './media-api.ts';
import { MediaUpload } from './media-upload.tsx';

function Choice({ item, current, onChoose }: { item: MediaItem; current: boolean; onChoose: () => void }) {
  const picture = mediaPicture(item, '(min-width: 640px) 12rem, 45vw');
  return (
    <li>
      <button
        type="button"
        onClick={onChoose}
        aria-pressed={current}
        className="flex h-full w-full flex-col overflow-hidden rounded-lg border border-slate-300 bg-white text-left hover:border-brand-700 aria-pressed:border-brand-700 aria-pressed:ring-2 aria-pressed:ring-brand-700 dark:border-slate-600 dark:bg-slate-900 dark:hover:border-sky-300 dark:aria-pressed:border-sky-300 dark:aria-pressed:ring-sky-300"
      >
        {item.kind === 'pdf' ? (
          <span className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-1 bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            <FileText className="size-10" aria-hidden="true" />
            <span className="text-sm font-semibold">PDF, {fileSizeLabel(item.bytes)}</span>
          </span>
        ) : (
          <picture>
            {picture.sources.map((s) => (
              <source key={s.type} type={s.type} srcSet={s.srcset} sizes={picture.sizes} />
            ))}
            {/* The button is named by the alt text below; the picture adds nothing for a screen reader. */}
            <img
              src={picture.src}
              width={picture.width}
              height={picture.height}
              alt=""
              loading="lazy"
              style={{ objectPosition: picture.objectPosition }}
              className="aspect-[4/3] w-full bg-slate-100 object-cover dark:bg-slate-800"
            />
          </picture>
        )}
        <span className="flex items-start gap-1 p-2 text-sm break-words">
          {current ? <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> : null}
          {item.altText}
        </span>
      </button>
    </li>
  );
}

/**
 * The media picker (issue 24, decision 291): the library searched by alt text, or a new upload; the
 * item chosen (or just uploaded) is handed to `onChoose` and the dialog closes, giving focus back to
 * the button that opened it. Drawn in document.body, so its upload form is never inside the editor's form.
 */
export function MediaPicker({
  open,
  currentId,
  onChoose,
  onClose,
  kind = 'image',
}: {
  open: boolean;
  currentId: string | null;
  onChoose: (item: MediaItem) => void;
  onClose: () => void;
  /** Only images (the default) or only PDFs are offered and taken (decision 295). */
  kind?: MediaKind;
}) {
  if (typeof document === 'undefined') return null;
  return createPortal(
    <ModalDialog
      open={open}
      onClose={onClose}
      title={kind === 'pdf' ? 'Choose a PDF' : 'Choose an image'}
      description="Pick one from the media library, or upload a new one."
      size="lg"
    >
      <PickerBody currentId={currentId} onChoose={onChoose} kind={kind} />
    </ModalDialog>,
    document.body,
  );
}

/** The dialog's content, drawn (and the library asked for) only while it is open. */
function PickerBody({
  currentId,
  onChoose,
  kind,
}: {
  currentId: string | null;
  onChoose: (item: MediaItem) => void;
  kind: MediaKind;
}) {
  const noun = kind === 'pdf' ? { one: 'PDF', many: 'PDFs' } : { one: 'image', many: 'images' };
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const searchId = useId();
  const { data, error, isPending, isFetching, refetch } = useMediaList(page, q, kind);
  const pages = data ? pageCount(data.pagination.total, MEDIA_PAGE_SIZE) : 1;
  return (
    <>
      {/* Submits inside stay here: the editor behind the dialog is not saved by an upload. */}
      <div className="space-y-4" onSubmit={(e) => e.stopPropagation()}>
        <div role="search">
          <label htmlFor={searchId} className={labelClass}>
            Search by alt text
          </label>
          <input
            id={searchId}
            type="search"
            className={inputClass}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
          />
        </div>
        <section aria-label={kind === 'pdf' ? 'PDFs in the library' : 'Images in the library'}>
          {isPending ? (
            <InlineLoading label={`Loading ${noun.many}…`} />
          ) : error || !data ? (
            <ErrorState title="Failed to load the media library" error={error} onRetry={() => void refetch()} />
          ) : data.items.length === 0 ? (
            <EmptyState
              icon={
                kind === 'pdf' ? (
                  <FileText className="size-8" aria-hidden="true" />
                ) : (
                  <ImageIcon className="size-8" aria-hidden="true" />
                )
              }
              title={q.trim() ? `No ${noun.one} matches` : `No ${noun.many} yet`}
              description={q.trim() ? `Try other words, or upload the ${noun.one} below.` : 'Upload one below.'}
            />
          ) : (
            <>
              <p role="status" className="mb-2 text-sm text-slate-700 dark:text-slate-300">
                {data.pagination.total === 1 ? `1 ${noun.one}` : `${data.pagination.total} ${noun.many}`}
                {q.trim() ? ` matching “${q.trim()}”` : ''}
              </p>
              <ul
                className="grid grid-cols-2 gap-3 sm:grid-cols-3"
                aria-label={kind === 'pdf' ? 'PDFs, newest first' : 'Images, newest first'}
              >
                {data.items.map((item) => (
                  <Choice key={item._id} item={item} current={item._id === currentId} onChoose={() => onChoose(item)} />
                ))}
              </ul>
              {pages > 1 ? (
                <Pager
                  page={page}
                  pages={pages}
                  onPage={setPage}
                  label={kind === 'pdf' ? 'PDF pages' : 'Image pages'}
                  busy={isFetching}
                />
              ) : null}
            </>
          )}
        </section>
        <MediaUpload inDialog kind={kind} onUploaded={onChoose} />
      </div>
    </>
  );
}
