import { useQuery } from '@tanstack/react-query';
import { MailWarning } from 'lucide-react';
import type { MailStatusResponse } from '../../../common/schemas/mail.ts';
import { apiFetch } from '../../lib/api.ts';
import { MAIL_STATUS_KEY } from '../../lib/portal-query-keys.ts';

/** The outbox changes with every invitation or form; a minute is fresh enough for a banner. */
const MAIL_STATUS_REFRESH_MS = 60_000;

const mails = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'mail' : 'mails'}`;

/**
 * The admin dashboard's banner while mail cannot leave: no transport configured (with what waits in
 * the outbox and how to set SMTP_URL), or mails that failed for good. Nothing when all is well.
 */
export function MailStatusBanner() {
  const { data } = useQuery({
    queryKey: MAIL_STATUS_KEY,
    queryFn: ({ signal }) => apiFetch<MailStatusResponse>('/mail/status', { signal, fallbackMessage: 'Could not check the mail set-up' }),
    refetchInterval: MAIL_STATUS_REFRESH_MS,
  });
  if (!data || (data.configured && data.failed === 0)) return null;
  return (
    <section
      aria-labelledby="mail-status-heading"
      className="flex gap-3 rounded-xl border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50"
    >
      <MailWarning className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        {!data.configured ? (
          <>
            <h2 id="mail-status-heading" className="font-semibold">
              E-mail is not set up: no mail leaves this server
            </h2>
            <p className="mt-1">
              {mails(data.waiting)} {data.waiting === 1 ? 'is' : 'are'} waiting in the outbox. Invitations, password resets and form
              confirmations are not delivered; pass invitation links on yourself. To send mail, set{' '}
              <code className="font-mono break-all">SMTP_URL</code> (for example <code className="font-mono break-all">smtps://user:password@smtp.example.com:465</code>)
              in the server&apos;s environment and restart it.
            </p>
          </>
        ) : (
          <>
            <h2 id="mail-status-heading" className="font-semibold">
              {mails(data.failed)} could not be sent
            </h2>
            <p className="mt-1">
              The mail server refused {data.failed === 1 ? 'it' : 'them'} after every retry{data.waiting ? `; ${mails(data.waiting)} still waiting` : ''}. Check the
              mail server and <code className="font-mono">SMTP_URL</code>, and the server&apos;s log.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
