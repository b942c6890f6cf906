import { useState } from 'react';
import type { Message } from '../../../common/schemas/messages.ts';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { useMessageVersions } from './messages-api.ts';

/** One text the message had: its subject, its words, and when it was written and replaced (Lagos time). */
function VersionEntry({ subject, text, when }: { subject: string; text: string; when: string }) {
  return (
    <>
      <p className="text-xs text-slate-700 dark:text-slate-300">{when}</p>
      {subject ? <p className="mt-1 font-semibold break-words">{subject}</p> : null}
      <p className="mt-1 break-words whitespace-pre-wrap text-slate-800 dark:text-slate-100">{text}</p>
    </>
  );
}

/**
 * Staff only (decision 259): beside the 'Edited' marker, opens what the message said before each correction,
 * under the text it has now. The versions are read when the dialog opens.
 */
export function MessageVersionsButton({ message }: { message: Message }) {
  const [open, setOpen] = useState(false);
  const versions = useMessageVersions(message._id, open);
  let body;
  if (versions.isPending) body = <InlineLoading label="Loading earlier versions..." />;
  else if (versions.isError) body = <ErrorState title="Failed to load the earlier versions" error={versions.error} onRetry={() => versions.refetch()} />;
  else
    body = (
      <ol className="grid gap-3 text-sm" aria-label="Versions, newest first">
        <li className="rounded-lg border border-brand-700 p-3 dark:border-sky-300">
          <h3 className="font-semibold">Current text</h3>
          <VersionEntry subject={message.subject} text={message.text} when={`Edited on ${formatDateTimeWithZone(message.editedAt ?? message.createdAt)}`} />
        </li>
        {versions.data.versions.map((v, i) => (
          <li key={v.replacedAt} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
            <h3 className="font-semibold">{i === versions.data.versions.length - 1 ? 'As sent' : 'Earlier version'}</h3>
            <VersionEntry subject={v.subject} text={v.text} when={`Written on ${formatDateTimeWithZone(v.writtenAt)}, replaced on ${formatDateTimeWithZone(v.replacedAt)}`} />
          </li>
        ))}
      </ol>
    );
  return (
    <>
      <button
        type="button"
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
        aria-haspopup="dialog"
        className="ml-2 min-h-6 rounded px-1 font-semibold text-brand-700 underline hover:no-underline dark:text-sky-300"
      >
        Earlier versions
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Earlier versions of the message from ${message.senderId.name}`} size="lg">
        {body}
      </ModalDialog>
    </>
  );
}
