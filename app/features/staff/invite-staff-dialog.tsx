import type { FormEvent } from 'react';
import { UserPlus } from 'lucide-react';
import { STAFF_ROLES, type StaffRole } from '../../../common/permissions.ts';
import { STAFF_ROLE_LABELS, staffInviteBodySchema } from '../../../common/schemas/staff.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField } from '../../components/forms/fields.tsx';
import { useEditForm } from '../../components/forms/use-edit-form.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useInviteStaff } from './staff-api.ts';

const toasts = scopedToasts('invite-staff');

export const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }));
type Fields = { name: string; email: string; role: StaffRole };
const EMPTY: Fields = { name: '', email: '', role: 'support' };
const REQUIRED = { name: 'Name is required', email: 'Enter a valid e-mail address' };

/**
 * 'Invite staff': name, e-mail and role. The person gets a set-password link by e-mail; the link is
 * also handed back (`onInvited`) so the owner can pass it on when mail is not configured.
 */
export function InviteStaffDialog({ onInvited }: { onInvited: (invite: { name: string; url: string; mailSent: boolean }) => void }) {
  const { open, close, openDialog, form, fieldErrors, set, changesToSend, failed } = useEditForm<Fields>(() => EMPTY, toasts);
  const invite = useInviteStaff();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // The whole form is checked and sent, not only what differs from the empty form.
    if (!changesToSend({ required: REQUIRED, requiredTitle: 'Please fill in all fields', schema: staffInviteBodySchema, failedTitle: 'Failed to invite staff member', checked: () => form })) return;
    try {
      const res = await invite.mutateAsync(form);
      toasts.show({ title: 'Staff member invited', description: res.mail === 'sent' ? `An invitation was sent to ${res.member.email}.` : 'The e-mail could not be sent: copy the link shown above the list.' });
      onInvited({ name: res.member.name, url: res.url, mailSent: res.mail === 'sent' });
      close();
    } catch (err) {
      failed('Failed to invite staff member', err, (message) => (message.includes('e-mail') ? 'email' : null));
    }
  }

  return (
    <>
      <button type="button" className={buttonClass('primary')} onClick={openDialog}>
        <UserPlus className="size-4" aria-hidden="true" />
        Invite staff
      </button>
      <ModalDialog open={open} onClose={close} title="Invite staff" description="They choose a password from the e-mailed link, then sign in with their e-mail address and set up an authenticator app.">
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label="Invite staff">
          <InputField label="Name" value={form.name} onChange={set('name')} error={fieldErrors.name} autoComplete="off" />
          <InputField label="Email" type="email" inputMode="email" value={form.email} onChange={set('email')} error={fieldErrors.email} autoComplete="off" />
          <SelectField label="Role" options={ROLE_OPTIONS} value={form.role} onChange={set('role')} error={fieldErrors.role} />
          <DialogFormActions onCancel={close} busy={invite.isPending} submitLabel="Send invitation" busyLabel="Sending..." />
        </form>
      </ModalDialog>
    </>
  );
}
