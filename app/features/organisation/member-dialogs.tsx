import { useState, type FormEvent } from 'react';
import { Pencil, Trash2, UserPlus } from 'lucide-react';
import { MEMBER_ROLES, type MemberRole } from '../../../common/permissions.ts';
import { inviteMemberBodySchema, MEMBER_ROLE_LABELS, type Member, type MemberListResponse } from '../../../common/schemas/organisation.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField } from '../../components/forms/fields.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useInviteMember, useRemoveMember, useUpdateMember } from './team-api.ts';

// The Team section's dialogs (decision 279): invite, change role and projects, remove.

const toasts = scopedToasts('team');
type Project = MemberListResponse['projects'][number];
const ROLE_OPTIONS = MEMBER_ROLES.map((role) => ({ value: role, label: `${MEMBER_ROLE_LABELS[role].label}: ${MEMBER_ROLE_LABELS[role].hint}` }));
const messageOf = (err: unknown) => (err instanceof Error ? err.message : 'Something went wrong');

/** Which projects a member sees: none ticked means all of them. */
function ProjectLimits({ projects, chosen, onChange }: { projects: Project[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  if (projects.length === 0) return null;
  const toggle = (id: string) => onChange(chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);
  return (
    <fieldset className="grid gap-1">
      <legend className="mb-1 text-sm font-medium">Projects they can see</legend>
      <p className="mb-1 text-sm text-slate-600 dark:text-slate-300">Tick none to let them see every project.</p>
      {projects.map((p) => (
        <label key={p._id} className="flex min-h-11 items-center gap-3 rounded-md px-2 hover:bg-slate-100 dark:hover:bg-slate-800">
          <input type="checkbox" className="size-5" checked={chosen.includes(p._id)} onChange={() => toggle(p._id)} />
          <span className="min-w-0 break-words">
            {p.name} <span className="text-slate-600 dark:text-slate-300">({p.code})</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** 'Invite a colleague': name, e-mail, role and optional project limits; the invitation mail lets them choose a password. */
export function InviteMemberDialog({ projects }: { projects: Project[] }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ name: '', email: '', memberRole: 'member' as MemberRole, projectIds: [] as string[] });
  const [errors, setErrors] = useState<{ name?: string; email?: string; form?: string }>({});
  const invite = useInviteMember();

  function openDialog() {
    setForm({ name: '', email: '', memberRole: 'member', projectIds: [] });
    setErrors({});
    setOpen(true);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const checked = inviteMemberBodySchema.safeParse(form);
    if (!checked.success) {
      const byField = Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message]));
      setErrors({ name: byField.name, email: byField.email });
      return;
    }
    try {
      const res = await invite.mutateAsync(form);
      toasts.show({
        title: `${res.member.name} was invited`,
        description: res.invitationMail === 'sent' ? `An e-mail with a link to choose a password went to ${res.member.email}.` : 'The invitation e-mail could not be sent; please try again later.',
      });
      setOpen(false);
    } catch (err) {
      const message = messageOf(err);
      setErrors(message.includes('e-mail') ? { email: message } : { form: message });
    }
  }

  return (
    <>
      <button type="button" className={buttonClass('primary')} onClick={openDialog}>
        <UserPlus className="size-4" aria-hidden="true" />
        Invite a colleague
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title="Invite a colleague" description="They get an e-mail with a link to choose their password.">
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label="Invite a colleague">
          <FormError message={errors.form ?? null} />
          <InputField label="Name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} error={errors.name} autoComplete="off" />
          <InputField
            label="Email"
            required
            type="email"
            inputMode="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
            error={errors.email}
            autoComplete="off"
          />
          <SelectField label="Role" options={ROLE_OPTIONS} value={form.memberRole} onChange={(e) => setForm({ ...form, memberRole: e.target.value as MemberRole })} />
          <ProjectLimits projects={projects} chosen={form.projectIds} onChange={(projectIds) => setForm({ ...form, projectIds })} />
          <DialogFormActions onCancel={() => setOpen(false)} busy={invite.isPending} submitLabel="Send invitation" busyLabel="Sending..." />
        </form>
      </ModalDialog>
    </>
  );
}

/** 'Edit': a colleague's role and the projects they see. */
export function EditMemberDialog({ member, projects }: { member: Member; projects: Project[] }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ memberRole: member.memberRole, projectIds: member.projectIds });
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateMember();

  function openDialog() {
    setForm({ memberRole: member.memberRole, projectIds: member.projectIds });
    setError(null);
    setOpen(true);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await update.mutateAsync({ id: member._id, changes: form });
      toasts.show({ title: `${member.name} updated` });
      setOpen(false);
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={openDialog} aria-label={`Edit ${member.name}`}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Edit ${member.name}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label={`Edit ${member.name}`}>
          <FormError message={error} />
          <SelectField label="Role" options={ROLE_OPTIONS} value={form.memberRole} onChange={(e) => setForm({ ...form, memberRole: e.target.value as MemberRole })} />
          <ProjectLimits projects={projects} chosen={form.projectIds} onChange={(projectIds) => setForm({ ...form, projectIds })} />
          <DialogFormActions onCancel={() => setOpen(false)} busy={update.isPending} submitLabel="Save changes" busyLabel="Saving..." />
        </form>
      </ModalDialog>
    </>
  );
}

/** 'Remove': asks first, naming the person; they are signed out at once. */
export function RemoveMemberDialog({ member }: { member: Member }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = useRemoveMember();

  async function onConfirm(event: FormEvent) {
    event.preventDefault();
    try {
      await remove.mutateAsync(member._id);
      toasts.show({ title: `${member.name} was removed` });
      setOpen(false);
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <>
      <button type="button" className={buttonClass('danger')} onClick={() => (setError(null), setOpen(true))} aria-label={`Remove ${member.name}`}>
        <Trash2 className="size-4" aria-hidden="true" />
        Remove
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Remove ${member.name}?`} description={`${member.name} will be signed out at once and can no longer sign in.`}>
        <form onSubmit={onConfirm} className="grid gap-3" aria-label={`Remove ${member.name}`}>
          <FormError message={error} />
          <DialogFormActions onCancel={() => setOpen(false)} busy={remove.isPending} submitLabel={`Remove ${member.name}`} busyLabel="Removing..." />
        </form>
      </ModalDialog>
    </>
  );
}
