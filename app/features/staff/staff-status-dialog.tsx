import { useState, type FormEvent } from 'react';
import type { StaffMember } from '../../../common/schemas/staff.ts';
import { buttonClass } from '../../components/button-class.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { useSetStaffStatus } from './staff-api.ts';

/** 'Deactivate' or 'Reactivate' with a confirmation that names the person and says what happens. */
export function StaffStatusDialog({ member }: { member: StaffMember }) {
  const [open, setOpen] = useState(false);
  const setStatus = useSetStaffStatus();
  const deactivating = member.status === 'active';
  const verb = deactivating ? 'Deactivate' : 'Reactivate';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await setStatus.mutateAsync({ id: member._id, status: deactivating ? 'deactivated' : 'active' });
      toast({ title: deactivating ? `${member.name} deactivated` : `${member.name} reactivated` });
      setOpen(false);
    } catch (err) {
      toastFailure(`Failed to ${verb.toLowerCase()} ${member.name}`, err);
    }
  }

  return (
    <>
      <button type="button" className={buttonClass(deactivating ? 'danger' : 'secondary')} onClick={() => setOpen(true)} aria-label={`${verb} ${member.name}`}>
        {verb}
      </button>
      <ModalDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`${verb} ${member.name}?`}
        description={
          deactivating
            ? `${member.name} is signed out everywhere at once and cannot sign in or reset the password until reactivated.`
            : `${member.name} can sign in again with the same password and second factor.`
        }
      >
        <form onSubmit={onSubmit} aria-label={`${verb} ${member.name}`}>
          <DialogFormActions onCancel={() => setOpen(false)} busy={setStatus.isPending} submitLabel={verb} busyLabel={deactivating ? 'Deactivating...' : 'Reactivating...'} />
        </form>
      </ModalDialog>
    </>
  );
}
