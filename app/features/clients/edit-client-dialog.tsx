import { useId, useState, type FormEvent } from 'react';
import { Pencil } from 'lucide-react';
import { CLIENT_STATUSES, updateClientBodySchema, type Client, type ClientStatus, type UpdateClientBody } from '../../../common/schemas/clients.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { detailErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { useUpdateClient } from './clients-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('edit-client');

const STATUS_LABELS: Record<ClientStatus, string> = { new: 'New', 'in-progress': 'In progress', completed: 'Completed' };

type Fields = { name: string; email: string; username: string; status: ClientStatus };
const fieldsOf = (client: Client): Fields => ({ name: client.name, email: client.email, username: client.username ?? '', status: client.status });

/**
 * 'Edit client': name, e-mail address, username and status, with creation's rules and messages.
 * Only what changed is sent. A new address or username while the invitation is pending re-issues
 * it (decision 241): the new link is handed to the client row, to copy.
 */
export function EditClientDialog({ client, onInvitation }: { client: Client; onInvitation: (link: { url: string; mail: MailOutcome }) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<Fields>(() => fieldsOf(client));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<string>>({});
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
    const parsed = updateClientBodySchema.safeParse(changes);
    if (!parsed.success) {
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? ''), i.message])));
      toasts.show({ title: 'Failed to update client', description: parsed.error.issues[0]?.message, variant: 'destructive' });
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
      setFieldErrors(detailErrors(err, (message) => (message.startsWith('The username') ? 'username' : message.includes('e-mail') ? 'email' : null)));
      toastFailure('Failed to update client', err);
    }
  }

  const errorOf = (key: keyof Fields) =>
    fieldErrors[key] ? (
      <p id={`${id}-${key}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
        {fieldErrors[key]}
      </p>
    ) : null;
  const invalid = (key: keyof Fields) => (fieldErrors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-error` } : {});

  return (
    <>
      {/* The name is in the label only: the row shows it already, and a second copy in the text would be read twice. */}
      <button type="button" className={buttonClass('secondary')} onClick={openDialog} aria-label={`Edit ${client.name}`}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Edit client ${client.name}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label={`Edit client ${client.name}`}>
          <div>
            <label htmlFor={`${id}-name`} className={labelClass}>
              Client name
            </label>
            <input id={`${id}-name`} className={inputClass} value={form.name} onChange={set('name')} autoComplete="off" {...invalid('name')} />
            {errorOf('name')}
          </div>
          <div>
            <label htmlFor={`${id}-email`} className={labelClass}>
              Email
            </label>
            <input id={`${id}-email`} type="email" inputMode="email" className={inputClass} value={form.email} onChange={set('email')} autoComplete="off" {...invalid('email')} />
            {errorOf('email')}
            {client.invitation === 'pending' ? (
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">A new address or username sends a new invitation; the pending link stops working.</p>
            ) : null}
          </div>
          <div>
            <label htmlFor={`${id}-username`} className={labelClass}>
              Username
            </label>
            <input
              id={`${id}-username`}
              className={inputClass}
              value={form.username}
              onChange={set('username')}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              {...invalid('username')}
            />
            {errorOf('username')}
          </div>
          <div>
            <label htmlFor={`${id}-status`} className={labelClass}>
              Status
            </label>
            <select id={`${id}-status`} className={inputClass} value={form.status} onChange={set('status')}>
              {CLIENT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </div>
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
