import { useState, type FormEvent } from 'react';
import { Pencil } from 'lucide-react';
import { CLIENT_STATUSES, updateClientBodySchema, type Client, type ClientStatus, type UpdateClientBody } from '../../../common/schemas/clients.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField } from '../../components/forms/fields.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { detailErrors, schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { useUpdateClient } from './clients-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('edit-client');

const STATUS_LABELS: Record<ClientStatus, string> = { new: 'New', 'in-progress': 'In progress', completed: 'Completed' };
const STATUS_OPTIONS = CLIENT_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }));

type Fields = { name: string; email: string; username: string; status: ClientStatus };
const fieldsOf = (client: Client): Fields => ({ name: client.name, email: client.email, username: client.username ?? '', status: client.status });

/**
 * 'Edit client': name, e-mail address, username and status, with creation's rules and messages.
 * Only what changed is sent. A new address or username while the invitation is pending re-issues
 * it (decision 241): the new link is handed to the client row, to copy.
 */
export function EditClientDialog({ client, onInvitation }: { client: Client; onInvitation: (link: { url: string; mail: MailOutcome }) => void }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<Fields>(() => fieldsOf(client));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<keyof Fields>>({});
  const update = useUpdateClient();

  function openDialog() {
    setForm(fieldsOf(client));
    setFieldErrors({});
    setOpen(true);
  }
  const set = (key: keyof Fields) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
    setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear();
    if (!form.name.trim() || !form.email.trim()) {
      setFieldErrors({ ...(form.name.trim() ? {} : { name: 'Name is required' }), ...(form.email.trim() ? {} : { email: 'Enter a valid e-mail address' }) });
      toasts.show({ title: 'Please fill in all fields', variant: 'destructive' });
      return;
    }
    const initial = fieldsOf(client);
    const changes: UpdateClientBody = Object.fromEntries(Object.entries(form).filter(([key, value]) => value !== initial[key as keyof Fields]));
    if (Object.keys(changes).length === 0) {
      setOpen(false);
      return;
    }
    const errors = schemaErrors<keyof Fields>(updateClientBodySchema, changes);
    const first = Object.values(errors)[0];
    if (first) {
      setFieldErrors(errors);
      toasts.show({ title: 'Failed to update client', description: first, variant: 'destructive' });
      return;
    }
    try {
      const res = await update.mutateAsync({ id: client._id, changes });
      if (res.invitation) onInvitation({ url: res.invitation.url, mail: res.invitation.mail });
      toasts.show({
        title: 'Client updated successfully',
        description: res.invitation
          ? res.invitation.mail === 'sent'
            ? `A new invitation was sent to ${res.client.email}; the earlier link no longer works.`
            : 'The earlier invitation link no longer works: copy the new one below the client and send it yourself.'
          : undefined,
      });
      setOpen(false);
    } catch (err) {
      setFieldErrors(detailErrors<keyof Fields>(err, (message) => (message.startsWith('The username') ? 'username' : message.includes('e-mail') ? 'email' : null)));
      toastFailure('Failed to update client', err);
    }
  }

  return (
    <>
      {/* The name is in the label only: the row shows it already, and a second copy in the text would be read twice. */}
      <button type="button" className={buttonClass('secondary')} onClick={openDialog} aria-label={`Edit ${client.name}`}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Edit client ${client.name}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label={`Edit client ${client.name}`}>
          <InputField label="Client name" value={form.name} onChange={set('name')} error={fieldErrors.name} autoComplete="off" />
          <InputField
            label="Email"
            type="email"
            inputMode="email"
            value={form.email}
            onChange={set('email')}
            error={fieldErrors.email}
            autoComplete="off"
            hint={client.invitation === 'pending' ? 'A new address or username sends a new invitation; the pending link stops working.' : undefined}
          />
          <InputField label="Username" value={form.username} onChange={set('username')} error={fieldErrors.username} autoComplete="off" autoCapitalize="none" spellCheck={false} />
          <SelectField label="Status" options={STATUS_OPTIONS} value={form.status} onChange={set('status')} />
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save changes'}
            </button>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}
