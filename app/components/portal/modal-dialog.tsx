import { useEffect, useId, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { buttonClass } from '../button-class.ts';

/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert and
 * traps focus, Escape closes it, and the heading labels it. Focus goes back to whatever opened it.
 */
export function ModalDialog({
  open,
  onClose,
  title,
  description,
  children,
  size = 'md',
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  size?: 'md' | 'lg';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => {
        onClose();
        opener.current?.focus();
      }}
      className={`m-auto max-h-[calc(100dvh-1rem)] w-[calc(100vw-1rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 ${size === 'lg' ? 'sm:max-w-3xl' : 'sm:max-w-xl'}`}
    >
      {open ? (
        <div className="p-4 sm:p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <h2 id={titleId} className="text-lg font-semibold sm:text-xl">
                {title}
              </h2>
              {description ? (
                <p id={descriptionId} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                  {description}
                </p>
              ) : null}
            </div>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              aria-label="Close dialog"
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

/** The foot of a dialog's form: 'Cancel' closes it, the submit button says while the save runs. */
export function DialogFormActions({ onCancel, busy, submitLabel, busyLabel }: { onCancel: () => void; busy: boolean; submitLabel: string; busyLabel: string }) {
  return (
    <div className="mt-2 flex flex-wrap justify-end gap-2">
      <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className={buttonClass('primary')} disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </div>
  );
}
