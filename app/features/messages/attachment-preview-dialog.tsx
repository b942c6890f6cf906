import { Download } from 'lucide-react';
import { clsx } from 'clsx';
import { MESSAGE_TEXTS, type Attachment } from '../../../common/schemas/messages.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { buttonClass } from '../../components/button-class.ts';

/** Where the browser downloads an attachment (the server then says attachment, not inline). */
const downloadUrl = (a: Attachment) => `${a.url}?download=1`;

/**
 * The attachment preview: images and videos are shown, with a dot per attachment of the message to
 * move between them; other files say 'Preview not available for this file type'. Download and Close.
 */
export function AttachmentPreviewDialog({
  attachments,
  index,
  onIndexChange,
  onClose,
}: {
  attachments: Attachment[];
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const current = index === null ? null : attachments[index];
  return (
    <ModalDialog open={current !== null && current !== undefined} onClose={onClose} title={current?.name ?? 'Attachment'} size="lg">
      {current ? (
        <div className="grid gap-4">
          <div className="flex min-h-48 items-center justify-center rounded-lg bg-slate-100 p-2 dark:bg-slate-950">
            {current.type === 'image' ? (
              <img src={current.url} alt={current.name} className="max-h-[60dvh] w-auto max-w-full object-contain" />
            ) : current.type === 'video' ? (
              // A client's site video has no captions to offer; its name labels it.
              <video key={current.publicId} src={current.url} controls preload="metadata" aria-label={current.name} className="max-h-[60dvh] w-full" />
            ) : (
              <p className="px-4 py-10 text-center text-slate-700 dark:text-slate-200">{MESSAGE_TEXTS.noPreview}</p>
            )}
          </div>
          {attachments.length > 1 ? (
            <div role="group" aria-label="Attachments of this message" className="flex flex-wrap justify-center gap-1">
              {attachments.map((a, i) => (
                <button
                  key={a.publicId}
                  type="button"
                  onClick={() => onIndexChange(i)}
                  aria-label={`Show attachment ${i + 1} of ${attachments.length}: ${a.name}`}
                  aria-current={i === index ? 'true' : undefined}
                  className="inline-flex size-8 items-center justify-center rounded-full hover:bg-slate-100 dark:hover:bg-slate-800"
                >
                  <span
                    aria-hidden="true"
                    className={clsx(
                      'block size-3 rounded-full border-2',
                      i === index ? 'border-brand-700 bg-brand-700 dark:border-sky-300 dark:bg-sky-300' : 'border-slate-500 dark:border-slate-400',
                    )}
                  />
                </button>
              ))}
            </div>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <a href={downloadUrl(current)} download={current.name} className={buttonClass('primary')}>
              <Download className="size-4" aria-hidden="true" />
              Download
            </a>
            <button type="button" onClick={onClose} className={buttonClass('secondary')}>
              Close
            </button>
          </div>
        </div>
      ) : null}
    </ModalDialog>
  );
}
