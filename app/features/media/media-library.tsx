import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FileText, ImageIcon, Pencil, Trash2 } from 'lucide-react';
import { MEDIA_PAGE_SIZE, mediaPdfUrl, mediaPicture, type MediaItem } from '../../../common/schemas/media.ts';
import { buttonClass } from '../../components/button-class.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { Pager } from '../../components/ui/pager.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { pageCount } from '../../lib/list-params.ts';
import { useDeleteMedia, useMediaList } from './media-api.ts';
import { MediaEditDialog } from './media-edit-dialog.tsx';
import { MediaUpload } from './media-upload.tsx';

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-GB')} KB`;

function MediaCard({ item, onEdit, onDelete }: { item: MediaItem; onEdit: () => void; onDelete: () => void }) {
  const picture = mediaPicture(item, '(min-width: 1024px) 18rem, (min-width: 640px) 45vw, 90vw');
  const inUse = item.usages.length > 0;
  const reasonId = `media-${item._id}-reason`;
  return (
    <li className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
      {item.kind === 'pdf' ? (
        // Decision 295: a PDF has no picture; its icon and type say what it is.
        <div className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-2 bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          <FileText className="size-12" aria-hidden="true" />
          <span className="rounded bg-white px-2 py-0.5 text-sm font-bold tracking-wide dark:bg-slate-900">PDF</span>
        </div>
      ) : (
        <picture>
          {picture.sources.map((s) => (
            <source key={s.type} type={s.type} srcSet={s.srcset} sizes={picture.sizes} />
          ))}
          <img
            src={picture.src}
            width={picture.width}
            height={picture.height}
            alt={item.altText}
            loading="lazy"
            style={{ objectPosition: picture.objectPosition }}
            className="aspect-[4/3] w-full bg-slate-100 object-cover dark:bg-slate-800"
          />
        </picture>
      )}
      <div className="flex flex-1 flex-col gap-2 p-3 text-sm">
        <p className="font-medium break-words">{item.altText}</p>
        <p className="text-slate-600 dark:text-slate-300">
          {item.kind === 'pdf' ? (
            <a href={mediaPdfUrl(item._id)} download className="font-medium text-brand-700 underline dark:text-sky-300">
              PDF
            </a>
          ) : (
            <>
              {item.width} × {item.height} px
            </>
          )}{' '}
          · {kb(item.bytes)} · <span className="break-all">{item.originalName}</span>
        </p>
        <p id={reasonId} className="text-slate-700 dark:text-slate-200">
          {inUse ? (
            <>
              <span className="font-semibold">Used in:</span> {item.usages.map((u) => u.label).join(', ')}
            </>
          ) : (
            'Not used on any page yet'
          )}
        </p>
        <div className="mt-auto flex flex-wrap gap-2">
          <button type="button" className={buttonClass('secondary')} onClick={onEdit} aria-label={`Edit ${item.altText}`}>
            <Pencil className="size-4" aria-hidden="true" />
            Edit
          </button>
          <button
            type="button"
            className={buttonClass('danger')}
            onClick={onDelete}
            disabled={inUse}
            aria-label={`Delete ${item.altText}`}
            aria-describedby={inUse ? reasonId : undefined}
            title={inUse ? 'In use: remove it from those pages first' : undefined}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Delete
          </button>
        </div>
      </div>
    </li>
  );
}

/** The media library: upload, the grid of images with where each is used, edit and delete. */
export function MediaLibrary() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, error, isPending, isFetching, refetch } = useMediaList(page);
  const remove = useDeleteMedia();
  const [editing, setEditing] = useState<MediaItem | null>(null);
  const [deleting, setDeleting] = useState<MediaItem | null>(null);
  const pages = data ? pageCount(data.pagination.total, MEDIA_PAGE_SIZE) : 1;

  async function onDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting._id);
      toast({ title: deleting.kind === 'pdf' ? 'PDF deleted' : 'Image deleted' });
      setDeleting(null);
    } catch (err) {
      toastFailure('The image could not be deleted', err);
    }
  }

  return (
    <div className="space-y-6">
      <MediaUpload />
      <section aria-labelledby="media-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <h2 id="media-heading" className="mb-4 text-xl font-semibold">
          Images and PDFs{' '}
          {data ? (
            <span className="text-base font-normal text-slate-600 dark:text-slate-400">({data.pagination.total})</span>
          ) : null}
        </h2>
        {isPending ? (
          <InlineLoading label="Loading images..." />
        ) : error || !data ? (
          <ErrorState title="Failed to load the media library" error={error} onRetry={() => void refetch()} />
        ) : data.items.length === 0 ? (
          <EmptyState
            icon={<ImageIcon className="size-8" aria-hidden="true" />}
            title="No images yet"
            description="Images and PDFs you upload appear here, ready for the website's pages."
          />
        ) : (
          <>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Images, newest first">
              {data.items.map((item) => (
                <MediaCard key={item._id} item={item} onEdit={() => setEditing(item)} onDelete={() => setDeleting(item)} />
              ))}
            </ul>
            {pages > 1 ? <Pager page={page} pages={pages} onPage={(p) => setParams(p > 1 ? { page: String(p) } : {})} label="Image pages" busy={isFetching} /> : null}
          </>
        )}
      </section>

      {editing ? <MediaEditDialog item={editing} onClose={() => setEditing(null)} /> : null}
      <ModalDialog open={deleting !== null} onClose={() => setDeleting(null)} title={deleting?.kind === 'pdf' ? 'Delete this PDF?' : 'Delete this image?'}
        description={deleting ? `“${deleting.altText}” ${deleting.kind === 'pdf' ? 'is removed' : 'and all its sizes are removed'}. This cannot be undone.` : undefined}>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass('secondary')} onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </button>
          <button type="button" className={buttonClass('danger')} onClick={() => void onDelete()} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </button>
        </div>
      </ModalDialog>
    </div>
  );
}
