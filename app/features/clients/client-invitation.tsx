import { clsx } from 'clsx';
import { MailCheck, MailWarning, Send, UserCheck, XCircle } from 'lucide-react';
import type { Client, ClientInvitationState } from '../../../common/schemas/clients.ts';
import { invitationMailText, type MailOutcome } from '../../../common/schemas/mail.ts';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { formatDay } from '../../../common/dates.ts';
import { useResendInvitation, useRevokeInvitation } from './clients-api.ts';
import { CopyableLink } from './copyable-link.tsx';

const STATE_STYLES: Record<ClientInvitationState, string> = {
  accepted: 'text-emerald-800 dark:text-emerald-200',
  pending: 'text-amber-900 dark:text-amber-200',
  none: 'text-red-800 dark:text-red-200',
};

const smallButton =
  'inline-flex min-h-9 items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800';

/** Where a client's account stands, in words and an icon (not colour alone). */
export function InvitationState({ client }: { client: Client }) {
  const { invitation } = client;
  const Icon = invitation === 'accepted' ? UserCheck : invitation === 'pending' ? MailCheck : MailWarning;
  const text =
    invitation === 'accepted'
      ? 'Active: password set'
      : invitation === 'pending'
        ? `Invitation pending${client.invitationExpiresAt ? `, expires ${formatDay(client.invitationExpiresAt)}` : ''}`
        : 'No valid invitation';
  return (
    <span className={clsx('inline-flex items-center gap-1 text-xs font-medium', STATE_STYLES[invitation])}>
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      {text}
    </span>
  );
}

/**
 * Staff's invitation actions for one client who has not set a password yet: send a new link (the
 * old one stops working; the new one is shown once, to copy) or revoke the pending one.
 */
export function InvitationActions({
  client,
  link,
  onLink,
}: {
  client: Client;
  link: { url: string; mail: MailOutcome } | null;
  onLink: (link: { url: string; mail: MailOutcome } | null) => void;
}) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  if (client.invitation === 'accepted') return null;
  const busy = resend.isPending || revoke.isPending;

  async function onResend() {
    try {
      const res = await resend.mutateAsync(client);
      onLink({ url: res.url, mail: res.mail });
      const until = `It is valid until ${formatDay(res.expiresAt)}; any earlier link no longer works.`;
      toast(
        res.mail === 'sent'
          ? { title: 'Invitation sent', description: `A new link was e-mailed to ${client.email}. ${until}` }
          : { title: 'New invitation link', description: `${invitationMailText(res.mail, client.email)} ${until}` },
      );
    } catch (err) {
      toastFailure('Failed to resend invitation', err);
    }
  }

  async function onRevoke() {
    try {
      const res = await revoke.mutateAsync(client);
      onLink(null);
      toast(
        res.revoked
          ? { title: 'Invitation revoked', description: `The link sent to ${client.name} no longer works. You can send a new one at any time.` }
          : { title: 'No invitation to revoke', description: `${client.name} had no link that still works.` },
      );
    } catch (err) {
      toastFailure('Failed to revoke invitation', err);
    }
  }

  return (
    <div className="grid grid-cols-1 gap-2">
      <div className="flex flex-wrap gap-2">
        <button type="button" className={smallButton} disabled={busy} onClick={() => void onResend()}>
          <Send className="size-3.5" aria-hidden="true" />
          {resend.isPending ? 'Sending...' : client.invitation === 'pending' ? 'Resend invitation' : 'Send new invitation'}
          <span className="sr-only"> to {client.name}</span>
        </button>
        {client.invitation === 'pending' ? (
          <button type="button" className={smallButton} disabled={busy} onClick={() => void onRevoke()}>
            <XCircle className="size-3.5" aria-hidden="true" />
            {revoke.isPending ? 'Revoking...' : 'Revoke invitation'}
            <span className="sr-only"> of {client.name}</span>
          </button>
        ) : null}
      </div>
      {link ? (
        <CopyableLink label={`New invitation link for ${client.name}`} url={link.url}>
          {invitationMailText(link.mail, client.email)}
        </CopyableLink>
      ) : null}
    </div>
  );
}
