import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Paperclip, Trash2 } from 'lucide-react';
import {
  CHANGE_ORDER_ATTACHMENT_MAX_BYTES,
  CHANGE_ORDER_ATTACHMENTS_MAX,
  type ChangeOrder,
  type ChangeOrderAttachment,
} from '../../../common/schemas/change-orders.ts';
import { DOCUMENT_ACCEPT } from '../../../common/schemas/documents.ts';
import { fileSizeLabel } from '../../../common/schemas/media.ts';
import { FilePicker } from '../../components/forms/file-picker.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { useChangeOrderAction } from './change-orders-api.ts';

const ATTACHMENT_MAX_MB = CHANGE_ORDER_ATTACHMENT_MAX_BYTES / (1024 * 1024);

/** A change order's files as download links with their sizes (the client's view, and staff's once sent). */
export function AttachmentList({ co }: { co: ChangeOrder }) {
  if (co.attachments.length === 0) return null;
  return (
    <div className="mt-2">
      <h5 className="text-sm font-medium text-slate-700 dark:text-slate-200">Attachments</h5>
      <ul className="mt-1 grid gap-1 text-sm" aria-label={`Attachments of ${co.reference}`}>
        {co.attachments.map((a) => (
          <li key={a._id} className="flex min-w-0 items-center gap-2">
            <Paperclip className="size-4 shrink-0 text-slate-600 dark:text-slate-300" aria-hidden="true" />
            <a href={a.url} download className="min-w-0 break-all text-brand-700 underline underline-offset-2 dark:text-sky-300">
              {a.fileName}
            </a>
            <span className="shrink-0 text-slate-700 dark:text-slate-300">({fileSizeLabel(a.size)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Staff's attachments of a draft: choose files (one request each, in turn, with "Uploading 1 of 2..."
 * while they go), see them with their sizes, remove one. The server's refusals show in an alert.
 */
export function DraftAttachments({ co, projectId, clientId }: { co: ChangeOrder; projectId: string; clientId: string }) {
  const id = useId();
  const action = useChangeOrderAction(projectId, clientId);
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const full = co.attachments.length >= CHANGE_ORDER_ATTACHMENTS_MAX;
  const busy = progress !== null || action.isPending;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = [...(event.target.files ?? [])];
    if (picker.current) picker.current.value = '';
    const problems: string[] = [];
    const room = CHANGE_ORDER_ATTACHMENTS_MAX - co.attachments.length;
    const files = chosen.filter((f) => {
      if (f.size <= CHANGE_ORDER_ATTACHMENT_MAX_BYTES) return true;
      problems.push(`${f.name} is larger than ${ATTACHMENT_MAX_MB} MB, the largest change order attachment`);
      return false;
    });
    if (files.length > room) problems.push(`A change order holds at most ${CHANGE_ORDER_ATTACHMENTS_MAX} attachments: ${files.length - room} not attached`);
    const sending = files.slice(0, Math.max(0, room));
    try {
      for (const [i, file] of sending.entries()) {
        setProgress(`Uploading ${file.name} (${i + 1} of ${sending.length})...`);
        try {
          await action.mutateAsync({ kind: 'attach', id: co._id, file });
        } catch (err) {
          problems.push(err instanceof Error ? err.message : `Failed to attach ${file.name}`);
        }
      }
    } finally {
      setProgress(null);
      setErrors(problems);
    }
  }

  return (
    <section className="mt-3 grid gap-2 rounded-md border border-dashed border-slate-300 p-3 dark:border-slate-600" aria-labelledby={`${id}-heading`}>
      <h5 id={`${id}-heading`} className="text-sm font-semibold">
        Attachments
      </h5>
      {co.attachments.length > 0 ? (
        <ul className="grid gap-1 text-sm" aria-label={`Attachments of ${co.reference}`}>
          {co.attachments.map((a: ChangeOrderAttachment) => (
            <li key={a._id} className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
              <span className="min-w-0 break-all">
                <a href={a.url} download className="text-brand-700 underline underline-offset-2 dark:text-sky-300">
                  {a.fileName}
                </a>{' '}
                <span className="text-slate-700 dark:text-slate-300">({fileSizeLabel(a.size)})</span>
              </span>
              <button
                type="button"
                className={buttonClass('ghost')}
                disabled={busy}
                aria-label={`Remove ${a.fileName}`}
                onClick={() => {
                  setErrors([]);
                  action.mutate({ kind: 'detach', id: co._id, attachmentId: a._id }, { onError: (err) => setErrors([err.message]) });
                }}
              >
                <Trash2 className="size-4" aria-hidden="true" />
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">No files attached.</p>
      )}
      <div>
        <span id={`${id}-label`} className="text-sm font-medium">
          Attach files (PDF, image, Word, Excel, PowerPoint, DWG, DXF or ZIP; up to {ATTACHMENT_MAX_MB} MB each, {CHANGE_ORDER_ATTACHMENTS_MAX} at most)
        </span>
        <FilePicker
          labelledBy={`${id}-label`}
          buttonText={full ? 'Attachments full' : 'Choose files'}
          count={co.attachments.length}
          accept={DOCUMENT_ACCEPT}
          multiple
          disabled={busy || full}
          inputRef={picker}
          onChange={(e) => void choose(e)}
        />
      </div>
      <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
        {progress ?? ''}
      </p>
      {errors.length > 0 ? (
        <div role="alert" className="text-sm text-red-700 dark:text-red-300">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
    </section>
  );
}
