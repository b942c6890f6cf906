import { useId, useRef, type ReactNode } from 'react';
import { Copy } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass } from '../../components/forms/field-classes.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('copy-link');

/**
 * A link shown in a read-only field with a Copy button. Where the clipboard is refused (an old
 * browser, a page without permission), the link is selected instead, ready for Ctrl+C.
 */
export function CopyableLink({ label, url, children }: { label: string; url: string; children?: ReactNode }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      toasts.show({ title: 'Invitation link copied', description: 'Paste it into a message to the client.' });
    } catch {
      field.current?.focus();
      field.current?.select();
      toasts.show({ title: 'Copy the selected link', description: 'Press Ctrl+C (or use your device menu) to copy it.' });
    }
  }

  return (
    <div className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-800 dark:bg-emerald-950">
      <label htmlFor={id} className="mb-1 block font-semibold text-emerald-950 dark:text-emerald-100">
        {label}
      </label>
      {children ? <div className="mb-2 text-emerald-950 dark:text-emerald-100">{children}</div> : null}
      {/* Stacked: the panels that show it are narrow, and the link should be readable in full width. */}
      <div className="grid grid-cols-1 gap-2">
        <input id={id} ref={field} readOnly value={url} className={`${inputClass} font-mono text-xs`} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className={`${buttonClass('secondary')} justify-self-start`} onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden="true" />
          Copy link
        </button>
      </div>
    </div>
  );
}
