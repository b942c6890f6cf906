import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CheckCircle2, CircleAlert } from 'lucide-react';
import { NEWSLETTER_MESSAGES } from '../../../common/newsletter.ts';
import { PATHS } from '../../../common/paths.ts';

type Outcome = { kind: 'working' } | { kind: 'ok'; message: string } | { kind: 'failed'; message: string };

const TEXT = {
  confirm: { title: 'Newsletter subscription', working: 'Confirming your subscription…' },
  unsubscribe: { title: 'Unsubscribe from the newsletter', working: 'Unsubscribing you…' },
} as const;

/**
 * Where the links of newsletter mails land. The page itself changes nothing (a GET, which mail
 * scanners may open); it asks the API with a POST once it runs in the browser.
 */
export function NewsletterLanding({ action }: { action: 'confirm' | 'unsubscribe' }) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  const sent = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setOutcome({ kind: 'failed', message: NEWSLETTER_MESSAGES.badLink });
      return;
    }
    fetch(`/api/newsletter/${action}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'same-origin',
    })
      .then(async (r) => {
        const data = (await r.json().catch(() => ({}))) as { message?: string };
        setOutcome(r.ok ? { kind: 'ok', message: data.message ?? '' } : { kind: 'failed', message: data.message ?? NEWSLETTER_MESSAGES.badLink });
      })
      .catch(() => setOutcome({ kind: 'failed', message: 'We could not reach the server. Please check your connection and open the link again.' }))
      .finally(() => headingRef.current?.focus());
  }, [action, token]);

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      {outcome.kind === 'ok' ? (
        <CheckCircle2 className="size-14 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
      ) : outcome.kind === 'failed' ? (
        <CircleAlert className="size-14 text-red-700 dark:text-red-400" aria-hidden="true" />
      ) : (
        <span className="size-12 animate-spin rounded-full border-4 border-slate-300 border-t-brand-600" aria-hidden="true" />
      )}
      <h1 ref={headingRef} tabIndex={-1} className="mt-6 text-3xl font-bold focus:outline-none">
        {TEXT[action].title}
      </h1>
      <p role="status" className="mt-4 text-lg text-slate-700 dark:text-slate-300">
        {outcome.kind === 'working' ? TEXT[action].working : outcome.message}
      </p>
      <Link
        to={PATHS.home}
        className="mt-8 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200"
      >
        Return to Home
      </Link>
    </div>
  );
}
