import { FileText, Film } from 'lucide-react';
import type { Attachment } from '../../../common/schemas/messages.ts';

/** A message's attachments, three per row; choosing one opens the preview. */
export function AttachmentGrid({ attachments, onOpen }: { attachments: Attachment[]; onOpen: (index: number) => void }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="mt-2 grid grid-cols-3 gap-2" aria-label="Attachments">
      {attachments.map((a, i) => (
        <li key={a.publicId} className="min-w-0">
          <button
            type="button"
            onClick={(e) => {
              e.stopPropagation();
              onOpen(i);
            }}
            aria-label={`Preview ${a.name}`}
            className="group flex w-full flex-col overflow-hidden rounded-md border border-slate-300 bg-white text-left hover:border-brand-600 dark:border-slate-600 dark:bg-slate-950 dark:hover:border-sky-300"
          >
            <span className="flex aspect-square w-full items-center justify-center bg-slate-100 dark:bg-slate-800">
              {a.type === 'image' ? (
                <img src={a.url} alt="" loading="lazy" decoding="async" className="size-full object-cover" />
              ) : a.type === 'video' ? (
                <Film className="size-8 text-slate-600 dark:text-slate-300" aria-hidden="true" />
              ) : (
                <FileText className="size-8 text-slate-600 dark:text-slate-300" aria-hidden="true" />
              )}
            </span>
            <span className="truncate px-1.5 py-1 text-xs text-slate-800 dark:text-slate-100" title={a.name}>
              {a.name}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
