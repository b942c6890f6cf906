import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Paperclip, Send, X } from 'lucide-react';
import {
  ATTACHMENT_ACCEPT,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_ATTACHMENTS_MAX,
  MESSAGE_SUBJECT_MAX,
  MESSAGE_TEXT_MAX,
  MESSAGE_TEXTS,
  SUBJECT_PREFIX,
  attachmentTypeOf,
  attachmentTypeOfName,
} from '../../../common/schemas/messages.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, TextAreaField } from '../../components/forms/fields.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { uploadAttachment, useSendMessage } from './messages-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('message-composer');

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Whether the browser's idea of the file's type is one the server accepts (the server checks the bytes). */
function allowedType(file: File): boolean {
  return Boolean(file.type ? attachmentTypeOf(file.type) : attachmentTypeOfName(file.name));
}

/** The subject box's value without its fixed prefix, whatever the edit did to the prefix. */
function subjectAfterEdit(value: string, previous: string): string {
  if (value.startsWith(SUBJECT_PREFIX)) return value.slice(SUBJECT_PREFIX.length);
  if (value === '') return '';
  // Deleting into the prefix changes nothing; typing over everything keeps what was typed.
  if (SUBJECT_PREFIX.startsWith(value)) return previous;
  return value.replace(/^\s*subject:?\s?/i, '');
}

/**
 * The composer: subject with its fixed 'Subject: ' prefix, the message, attachments and Send.
 * Attachments upload one by one as multipart; a failed one is skipped, all failing stops the send.
 */
export function MessageComposer({
  projectId,
  receiverId,
  onSent,
  reply,
}: {
  projectId: string | null;
  /** The client (staff view) or the project's client (client view, the specification's quirk); the server decides anyway. */
  receiverId: string | null;
  onSent?: () => void;
  /** A Reply chosen on a message: its 'Re: ...' subject is put in the box and the message field focused. */
  reply?: { subject: string; seq: number } | null;
}) {
  const ids = { files: useId(), hint: useId() };
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const textBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!reply) return;
    setSubject(reply.subject);
    textBox.current?.focus();
  }, [reply]);
  const send = useSendMessage();
  const sending = progress !== null || send.isPending;
  const ready = Boolean(projectId && receiverId);
  const blank = text.trim().length === 0;

  function choose(list: FileList | null) {
    const accepted: File[] = [];
    for (const file of Array.from(list ?? [])) {
      if (!allowedType(file)) {
        toasts.show({ title: MESSAGE_TEXTS.invalidTypeTitle, description: MESSAGE_TEXTS.invalidType(file.name), variant: 'destructive' });
      } else if (file.size > MESSAGE_ATTACHMENT_MAX_BYTES) {
        toasts.show({ title: MESSAGE_TEXTS.tooLargeTitle, description: MESSAGE_TEXTS.tooLarge(file.name), variant: 'destructive' });
      } else {
        accepted.push(file);
      }
    }
    setFiles((current) => [...current, ...accepted].slice(0, MESSAGE_ATTACHMENTS_MAX));
    if (picker.current) picker.current.value = '';
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (sending || !projectId || !receiverId) return;
    if (blank) {
      toasts.show({ title: MESSAGE_TEXTS.emptyText, variant: 'destructive' });
      return;
    }
    const uploaded = [];
    let uploadError: unknown;
    try {
      for (const [i, file] of files.entries()) {
        setProgress(`Uploading ${i + 1} of ${files.length}...`);
        try {
          uploaded.push((await uploadAttachment(file)).file);
        } catch (err) {
          // One failed upload is skipped; the message goes with the others.
          console.error(`Upload of ${file.name} failed`, err);
          uploadError = err;
          // Over the upload limit, the rest would be refused as well.
          if (err instanceof ApiRequestError && err.status === 429) break;
        }
      }
      if (files.length > 0 && uploaded.length === 0) {
        // The server's reason (such as the upload limit and when to try again) under the specification's title.
        toastFailure(MESSAGE_TEXTS.allUploadsFailed, uploadError);
        return;
      }
      setProgress('Sending...');
      await send.mutateAsync({ subject: `${SUBJECT_PREFIX}${subject}`, text, receiverId, projectId, attachments: uploaded });
      toasts.show({ title: MESSAGE_TEXTS.sent });
      setSubject('');
      setText('');
      setFiles([]);
      onSent?.();
    } catch (err) {
      toastFailure(MESSAGE_TEXTS.sendFailed, err);
    } finally {
      setProgress(null);
    }
  }

  return (
    <form onSubmit={submit} className="mt-4 grid gap-3" aria-label="Write a message" noValidate>
      <InputField
        label="Subject"
        value={`${SUBJECT_PREFIX}${subject}`}
        maxLength={SUBJECT_PREFIX.length + MESSAGE_SUBJECT_MAX}
        onChange={(e) => setSubject((prev) => subjectAfterEdit(e.target.value, prev))}
        // The caret never goes inside the fixed prefix.
        onSelect={(e) => {
          const el = e.currentTarget;
          if ((el.selectionStart ?? 0) < SUBJECT_PREFIX.length && el.selectionStart === el.selectionEnd) {
            el.setSelectionRange(SUBJECT_PREFIX.length, SUBJECT_PREFIX.length);
          }
        }}
        disabled={!ready}
        autoComplete="off"
      />
      <TextAreaField
        label="Message"
        inputRef={textBox}
        rows={3}
        value={text}
        maxLength={MESSAGE_TEXT_MAX}
        onChange={(e) => setText(e.target.value)}
        disabled={!ready}
        placeholder="Type your message..."
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <input
            ref={picker}
            id={ids.files}
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            className="peer sr-only"
            aria-describedby={ids.hint}
            onChange={(e) => choose(e.target.files)}
            disabled={!ready || sending}
          />
          <label htmlFor={ids.files} className={`${buttonClass('secondary')} cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-disabled:cursor-not-allowed peer-disabled:opacity-60 dark:peer-focus-visible:outline-sky-300`}>
            <Paperclip className="size-4" aria-hidden="true" />
            Attach files
          </label>
          <p id={ids.hint} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            Images, videos, PDF, Word, Excel, PowerPoint or text; up to 50MB each.
          </p>
        </div>
        <button type="submit" className={buttonClass('primary')} disabled={!ready || blank || sending}>
          <Send className="size-4" aria-hidden="true" />
          {progress ?? 'Send'}
        </button>
      </div>
      {files.length > 0 ? (
        <ul aria-label="Chosen attachments" className="flex flex-wrap gap-2">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`} className="flex max-w-full items-center gap-1 rounded-full border border-slate-300 bg-white py-0.5 pr-1 pl-3 text-xs dark:border-slate-600 dark:bg-slate-900">
              <span className="truncate">{f.name}</span>
              <span className="shrink-0 text-slate-600 dark:text-slate-300">({sizeText(f.size)})</span>
              <button
                type="button"
                onClick={() => setFiles((list) => list.filter((_, j) => j !== i))}
                aria-label={`Remove ${f.name}`}
                disabled={sending}
                className="inline-flex size-6 items-center justify-center rounded-full hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p role="status" className="sr-only">
        {progress ?? ''}
      </p>
    </form>
  );
}
