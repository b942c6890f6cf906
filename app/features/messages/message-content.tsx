import { useEffect, useId, useState, type FormEvent } from 'react';
import { Pencil, Reply, Trash2 } from 'lucide-react';
import { MESSAGE_EDIT_WINDOW_MS, MESSAGE_TEXT_MAX, MESSAGE_TEXTS, withinEditWindow, type Message } from '../../../common/schemas/messages.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { AttachmentGrid } from './attachment-grid.tsx';
import { useDeleteMessage, useEditMessage } from './messages-api.ts';
import { MessageVersionsButton } from './message-versions-dialog.tsx';

const ACTION_CLASS =
  'inline-flex min-h-11 items-center gap-1 rounded px-2 text-xs font-semibold text-brand-700 underline hover:no-underline sm:min-h-8 dark:text-sky-300';

/** Whether the author's 15 minutes are still open, turning false on time (the server decides anyway, decision 244). */
function useEditWindowOpen(message: Message, mine: boolean): boolean {
  const open = mine && !message.deletedAt && withinEditWindow(message, Date.now());
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!open) return;
    const left = new Date(message.createdAt).getTime() + MESSAGE_EDIT_WINDOW_MS - Date.now();
    const timer = setTimeout(() => setTick((n) => n + 1), Math.max(0, left) + 50);
    return () => clearTimeout(timer);
  }, [open, message.createdAt]);
  return open;
}

/**
 * A message's subject, text and attachments, and what may be done with it: the author edits or
 * deletes it for 15 minutes after sending, the other side replies. A removed message shows only
 * 'This message was removed'; a corrected one says 'Edited'.
 */
export function MessageContent({
  message: m,
  mine,
  onOpenAttachment,
  onReply,
  staff = false,
}: {
  message: Message;
  mine: boolean;
  /** Staff may open an edited message's earlier versions (decision 259). */
  staff?: boolean;
  onOpenAttachment: (index: number) => void;
  onReply?: (message: Message) => void;
}) {
  const editable = useEditWindowOpen(m, mine);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState(m.text);
  const edit = useEditMessage();
  const remove = useDeleteMessage();
  const fieldId = useId();

  if (m.deletedAt) {
    return <p className="mt-1 text-slate-600 italic dark:text-slate-300">{MESSAGE_TEXTS.removed}</p>;
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft.trim()) {
      toast({ title: MESSAGE_TEXTS.emptyText, variant: 'destructive' });
      return;
    }
    try {
      await edit.mutateAsync({ message: m, text: draft });
      setEditing(false);
      toast({ title: 'Message updated' });
    } catch (err) {
      toastFailure('Failed to edit the message', err);
    }
  }

  async function confirmDelete() {
    try {
      await remove.mutateAsync(m);
      setConfirming(false);
      toast({ title: 'Message deleted' });
    } catch (err) {
      setConfirming(false);
      toastFailure('Failed to delete the message', err);
    }
  }

  return (
    <>
      {m.subject ? <p className="mt-1 font-semibold break-words">{m.subject}</p> : null}
      {editing && editable ? (
        <form onSubmit={save} onClick={(e) => e.stopPropagation()} className="mt-1 grid gap-2" aria-label="Edit message" noValidate>
          <label htmlFor={fieldId} className={labelClass}>
            Message
          </label>
          <textarea id={fieldId} className={`${inputClass} min-h-20 resize-y`} value={draft} maxLength={MESSAGE_TEXT_MAX} onChange={(e) => setDraft(e.target.value)} autoFocus />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={buttonClass('primary')} disabled={edit.isPending}>
              {edit.isPending ? 'Saving...' : 'Save'}
            </button>
            <button type="button" className={buttonClass('secondary')} onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="mt-1 break-words whitespace-pre-wrap text-slate-800 dark:text-slate-100">{m.text}</p>
      )}
      <AttachmentGrid attachments={m.attachments} onOpen={onOpenAttachment} />
      {m.editedAt ? (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          <span title={new Date(m.editedAt).toLocaleString('en-NG')}>{MESSAGE_TEXTS.edited}</span>
          {staff ? <MessageVersionsButton message={m} /> : null}
        </p>
      ) : null}
      {(editable && !editing) || (!mine && onReply) ? (
        <div className="mt-1 flex flex-wrap gap-1" role="group" aria-label="Message actions">
          {editable && !editing ? (
            <>
              <button
                type="button"
                className={ACTION_CLASS}
                onClick={() => {
                  setDraft(m.text);
                  setEditing(true);
                }}
              >
                <Pencil className="size-3.5" aria-hidden="true" />
                Edit
              </button>
              <button type="button" className={`${ACTION_CLASS} text-red-700 dark:text-red-300`} onClick={() => setConfirming(true)}>
                <Trash2 className="size-3.5" aria-hidden="true" />
                Delete
              </button>
            </>
          ) : null}
          {!mine && onReply ? (
            <button type="button" className={ACTION_CLASS} onClick={() => onReply(m)}>
              <Reply className="size-3.5" aria-hidden="true" />
              Reply
            </button>
          ) : null}
        </div>
      ) : null}
      {confirming ? (
        <ModalDialog
          open
          onClose={() => setConfirming(false)}
          title="Delete this message?"
          description={`It will show as '${MESSAGE_TEXTS.removed}' for everyone in the thread${m.attachments.length ? ', and its attachments are deleted' : ''}.`}
        >
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className={`${buttonClass('primary')} bg-red-700 hover:bg-red-800 dark:bg-red-300 dark:hover:bg-red-200`} onClick={() => void confirmDelete()} disabled={remove.isPending}>
              {remove.isPending ? 'Deleting...' : 'Delete message'}
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </>
  );
}
