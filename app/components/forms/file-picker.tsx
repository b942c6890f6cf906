import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { Paperclip } from 'lucide-react';
import { clsx } from 'clsx';

const BUTTON =
  'inline-flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 ' +
  // The native input is visually hidden but keeps the focus: its ring shows on the button.
  'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 dark:peer-focus-visible:outline-sky-300 ' +
  'peer-disabled:cursor-not-allowed peer-disabled:opacity-60';

/** "No files chosen", "1 file chosen", "3 files chosen". */
function chosenCount(n: number): string {
  return n === 0 ? 'No files chosen' : `${n} file${n === 1 ? '' : 's'} chosen`;
}

/**
 * A file picker that agrees with the list of chosen files under it. The browser's own control says
 * "No file chosen" once the form takes the files into its list and empties the input (so the same
 * file can be chosen again), contradicting that list (issue 21). Here the native input is visually
 * hidden but still the focusable, labelled control; a label styled as a button opens it, and the
 * count beside it is the form's own list.
 */
export function FilePicker({
  labelledBy,
  buttonText,
  count,
  describedBy,
  inputRef,
  className,
  ...input
}: {
  /** The id of the field's visible label (the input's accessible name). */
  labelledBy: string;
  buttonText: string;
  /** How many files the form holds (its list, not the input's). */
  count: number;
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'>) {
  const own = useId();
  const id = input.id ?? own;
  const countId = `${id}-count`;
  return (
    <div className={clsx('mt-1 flex flex-wrap items-center gap-3', className)}>
      <input
        {...input}
        ref={inputRef}
        id={id}
        type="file"
        className="peer sr-only"
        aria-labelledby={labelledBy}
        aria-describedby={[countId, describedBy].filter(Boolean).join(' ')}
      />
      <label htmlFor={id} className={BUTTON}>
        <Paperclip className="size-4" aria-hidden="true" />
        {buttonText}
      </label>
      <span id={countId} className="text-sm text-slate-700 dark:text-slate-300" data-file-count="">
        {chosenCount(count)}
      </span>
    </div>
  );
}
