import { useId, useState } from 'react';
import { clsx } from 'clsx';
import { UserCog } from 'lucide-react';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import type { StaffRole } from '../../../common/permissions.ts';
import { STAFF_ROLE_LABELS, type StaffMember } from '../../../common/schemas/staff.ts';
import { inputClass } from '../../components/forms/field-classes.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { toastFailure, useFailureToast } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { InviteStaffDialog, ROLE_OPTIONS } from './invite-staff-dialog.tsx';
import { useChangeStaffRole, useStaff } from './staff-api.ts';
import { StaffStatusDialog } from './staff-status-dialog.tsx';
import { TableHead } from '../../components/portal/table-head.tsx';

/** The role of one person, changed as soon as another is chosen (the server refuses demoting the last owner). */
function RoleSelect({ member }: { member: StaffMember }) {
  const change = useChangeStaffRole();
  async function onChange(role: StaffRole) {
    try {
      await change.mutateAsync({ id: member._id, role });
      toast({ title: `${member.name} is now ${STAFF_ROLE_LABELS[role]}` });
    } catch (err) {
      toastFailure(`Failed to change the role of ${member.name}`, err);
    }
  }
  return (
    <select
      aria-label={`Role of ${member.name}`}
      className={clsx(inputClass, 'sm:w-48')}
      value={member.role}
      disabled={change.isPending}
      onChange={(e) => void onChange(e.target.value as StaffRole)}
    >
      {ROLE_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function StatusBadge({ member }: { member: StaffMember }) {
  const label = member.status === 'deactivated' ? 'Deactivated' : member.invited ? 'Invited' : 'Active';
  return (
    <span
      className={clsx(
        'inline-block rounded-full px-2 py-0.5 text-xs font-semibold',
        member.status === 'deactivated'
          ? 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100'
          : member.invited
            ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100'
            : 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
      )}
    >
      {label}
    </span>
  );
}

/** Last sign-in and second factor, in words. */
const signInText = (m: StaffMember) => (m.lastSignInAt ? formatDateTimeWithZone(m.lastSignInAt) : 'Never');
const factorText = (m: StaffMember) => (m.mfaEnabled ? 'On' : 'Off');

/** The link of the last invitation, to copy when the e-mail did not go. */
function InvitationLink({ invite }: { invite: { name: string; url: string; mailSent: boolean } }) {
  const id = useId();
  return (
    <div role="status" className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
      <label htmlFor={id} className="font-medium">
        {invite.mailSent ? `Invitation sent to ${invite.name}. Their link, if they need it again:` : `Invitation link for ${invite.name} (the e-mail was not sent: pass it on yourself):`}
      </label>
      <input id={id} readOnly value={invite.url} className={clsx(inputClass, 'mt-1 font-mono text-xs')} onFocus={(e) => e.currentTarget.select()} />
    </div>
  );
}

/**
 * The staff screen (decision 275): every staff account with its role, status, last sign-in and second
 * factor; owners invite, change roles, deactivate and reactivate. Phones get one card per person.
 */
export function StaffList() {
  const id = useId();
  const staff = useStaff();
  useFailureToast(staff.error, 'Failed to load staff');
  const [invite, setInvite] = useState<{ name: string; url: string; mailSent: boolean } | null>(null);
  const members = staff.data?.staff ?? [];
  return (
    <section aria-labelledby={`${id}-heading`} className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-semibold">
            Staff accounts
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">Who can sign in to the admin area and what their role lets them do.</p>
        </div>
        <InviteStaffDialog onInvited={setInvite} />
      </div>
      {invite ? <InvitationLink invite={invite} /> : null}
      {staff.isPending ? (
        <InlineLoading label="Loading staff..." />
      ) : staff.isError ? (
        <ErrorState title="Failed to load staff" error={staff.error} onRetry={() => staff.refetch()} />
      ) : members.length === 0 ? (
        <EmptyState icon={<UserCog className="size-8" aria-hidden="true" />} title="No staff accounts yet" description="Invite the first staff member." />
      ) : (
        <div aria-busy={staff.isFetching}>
          <ul className="grid gap-2 md:hidden" aria-label="Staff accounts">
            {members.map((m) => (
              <li key={m._id} className="grid gap-2 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-semibold break-words">{m.name}</p>
                    <p className="break-all text-slate-600 dark:text-slate-300">{m.email}</p>
                  </div>
                  <StatusBadge member={m} />
                </div>
                <p className="text-slate-600 dark:text-slate-300">
                  Last sign-in: {signInText(m)} · Second factor: {factorText(m)}
                </p>
                <RoleSelect member={m} />
                <div>
                  <StaffStatusDialog member={m} />
                </div>
              </li>
            ))}
          </ul>
          <table className="hidden w-full border-collapse text-left text-sm md:table">
            <TableHead caption="Staff accounts" headings={['Name', 'Role', 'Status', 'Last sign-in', 'Second factor', 'Access']} />
            <tbody>
              {members.map((m) => (
                <tr key={m._id} className="border-b border-slate-200 align-middle last:border-0 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-3 text-left font-normal">
                    <span className="block font-semibold break-words">{m.name}</span>
                    <span className="block break-all text-slate-600 dark:text-slate-300">{m.email}</span>
                  </th>
                  <td className="py-2 pr-3">
                    <RoleSelect member={m} />
                  </td>
                  <td className="py-2 pr-3">
                    <StatusBadge member={m} />
                  </td>
                  <td className="py-2 pr-3">{signInText(m)}</td>
                  <td className="py-2 pr-3">{factorText(m)}</td>
                  <td className="py-2">
                    <StaffStatusDialog member={m} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
