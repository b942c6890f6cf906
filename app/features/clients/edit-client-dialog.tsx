import type { FormEvent } from 'react';
import { Pencil } from 'lucide-react';
import { CLIENT_STATUSES, updateClientBodySchema, type Client, type ClientStatus } from '../../../common/schemas/clients.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField } from '../../components/forms/fields.tsx';
import { useEditForm } from '../../components/forms/use-edit-form.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useUpdateClient } from './clients-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('edit-client');

const STATUS_LABELS: Record<ClientStatus, string> = { new: 'New', 'in-progress': 'In progress', completed: 'Completed' };
const STATUS_OPTIONS = CLIENT_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }));

type Fields = { name: string; email: string; username: string; status: ClientStatus };
/** The specification's messages for a blank name or address (before the schema's own). */
const REQUIRED = { name: 'Name is required', email: 'Enter a valid e-mail address' };
const fieldsOf = (client: Client): Fields => ({ name: client.name, email: client.email, username: client.username ?? '', status: client.status });

/**
 * 'Edit client': name, e-mail address, username and status, with creation's rules and messages.
 * Only what changed is sent. A new address or username while the invitation is pending re-issues
 * it (decision 241): the new link is handed to the client row, to copy.
 */
export function EditClientDialog({ client, onInvitation }: { client: Client; onInvitation: (link: { url: string; mail: MailOutcome }) => void }) {
  const { open, close, openDialog, form, fieldErrors, set, changesToSend, failed } = useEditForm(() => fieldsOf(client), toasts);
  const update = useUpdateClient();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes = changesToSend({ required: REQUIRED, requiredTitle: 'Please fill in all fields', schema: updateClientBodySchema, failedTitle: 'Failed to update client' });
    if (!changes) return;
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
      close();
    } catch (err) {
      failed('Failed to update client', err, (message) => (message.startsWith('The username') ? 'username' : message.includes('e-mail') ? 'email' : null));
    }
  }

  return (
    <>
      {/* The name is in the label only: the row shows it already, and a second copy in the text would be read twice. */}
      <button type="button" className={buttonClass('secondary')} onClick={openDialog} aria-label={`Edit ${client.name}`}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit
      </button>
      <ModalDialog open={open} onClose={close} title={`Edit client ${client.name}`}>
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
          <DialogFormActions onCancel={close} busy={update.isPending} submitLabel="Save changes" busyLabel="Saving..." />
        </form>
      </ModalDialog>
    </>
  );
}
