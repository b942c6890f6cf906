import { useId, useState, type FormEvent } from 'react';
import { FORM_MESSAGES } from '../../../common/form-guard.ts';
import { NEWSLETTER_MESSAGES } from '../../../common/newsletter.ts';
import { HoneypotField } from '../../components/forms/honeypot-field.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useFormGuard } from '../../lib/form-guard.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

// Light on purpose (no zod, no query library): this box is on every page.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function subscribe(body: Record<string, string>): Promise<string> {
  let response: Response;
  try {
    response = await fetch('/api/newsletter/subscribe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new Error(NEWSLETTER_MESSAGES.failed);
  }
  const data = (await response.json().catch(() => ({}))) as { message?: unknown };
  const message = typeof data.message === 'string' && data.message ? data.message : undefined;
  if (!response.ok) throw new Error(response.status === 400 && message?.startsWith('body.email') ? 'Please enter a valid email address' : (message ?? NEWSLETTER_MESSAGES.failed));
  return message ?? NEWSLETTER_MESSAGES.checkInbox;
}

/** The footer's newsletter box: subscribes with double opt-in and says what happened. */
export function NewsletterForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  // The token is fetched when someone starts typing, not on every page view.
  const guard = useFormGuard('newsletter', { eager: false });
  const busy = state.kind === 'busy';
  const hydrated = useHydrated();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setState({ kind: 'error', message: 'Please enter a valid email address' });
      return;
    }
    setState({ kind: 'busy' });
    try {
      const message = await subscribe({ ...(await guard.guardFields()), email: address });
      setState({ kind: 'done', message });
      setEmail('');
      toast({ title: 'Check your inbox', description: message });
      guard.reset();
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : NEWSLETTER_MESSAGES.failed;
      setState({ kind: 'error', message });
      toast({ title: 'Subscription failed', description: message, variant: 'destructive' });
      if (message === FORM_MESSAGES.expired) guard.reset();
    }
  }

  return (
    <form className="relative" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-describedby={`${id}-status`}>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          Email address
        </label>
        <input
          id={id}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="Your email address"
          value={email}
          onFocus={() => guard.prepare().catch(() => undefined)}
          onChange={(e) => {
            setEmail(e.target.value);
            if (state.kind === 'error') setState({ kind: 'idle' });
          }}
          aria-invalid={state.kind === 'error' || undefined}
          className="min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 text-sm text-white placeholder:text-slate-400"
        />
        <button
          type="submit"
          disabled={busy || !hydrated}
          className="min-h-11 shrink-0 rounded-md bg-accent-500 px-4 text-sm font-semibold text-slate-950 hover:bg-amber-400 disabled:cursor-wait disabled:opacity-70"
        >
          {busy ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      <HoneypotField inputRef={guard.honeypotRef} />
      <p id={`${id}-status`} role="status" className={state.kind === 'error' ? 'mt-2 text-sm text-red-300' : 'mt-2 text-sm text-emerald-300'}>
        {state.kind === 'done' || state.kind === 'error' ? state.message : ''}
      </p>
    </form>
  );
}
