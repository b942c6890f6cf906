import { buttonClass } from '../button-class.ts';
import { FormError } from '../forms/form-error.tsx';
import { ModalDialog } from './modal-dialog.tsx';

/** A yes-or-no question before a step that cannot be taken back (issue, delete). */
export function ConfirmDialog({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  busyLabel,
  danger = false,
  busy,
  error,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
}) {
  return (
    <ModalDialog open={open} onClose={onClose} title={title} description={description}>
      <FormError message={error} />
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonClass('secondary')} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={danger ? `${buttonClass('danger')} border border-red-700 dark:border-red-300` : buttonClass('primary')} disabled={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
