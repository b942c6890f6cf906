import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { buttonClass } from '../../components/button-class.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';

/**
 * Asks before leaving the form with unsaved changes: in-app navigation (a dialog) and closing the
 * tab (the browser's prompt). `saved` is set the moment a save succeeds, so the way back is open.
 */
export function LeaveGuard({ dirty, saved }: { dirty: boolean; saved: { current: boolean } }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !saved.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  return (
    <ModalDialog
      open={blocker.state === 'blocked'}
      onClose={() => {
        if (blocker.state === 'blocked') blocker.reset();
      }}
      title="Leave without saving?"
      description="Your changes to this post have not been saved. If you leave now, they are lost."
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass('secondary')} onClick={() => blocker.reset?.()}>
          Stay on this page
        </button>
        <button type="button" className="inline-flex min-h-11 items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 dark:bg-red-400 dark:text-slate-950" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </button>
      </div>
    </ModalDialog>
  );
}
