// The footer's newsletter box. Without JavaScript it is a plain form that posts to
// /newsletter/subscribe and gets a page back; with it, it subscribes in place (the same JSON API
// the React pages used), says what happened in its status line and as a toast, and fetches the
// bot-guard token only once someone starts typing.

import { FORM_MESSAGES, HONEYPOT_FIELD } from '../../common/form-guard.ts';
import { NEWSLETTER_MESSAGES } from '../../common/newsletter.ts';
import { toast } from '../components/ui/toast-store.ts';
import { formTokenGuard } from '../lib/form-token.ts';

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
  const data: unknown = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(subscriptionRefusal(data));
  return messageOf(data) ?? NEWSLETTER_MESSAGES.checkInbox;
}

function messageOf(body: unknown): string | undefined {
  const { message } = (body ?? {}) as { message?: unknown };
  return typeof message === 'string' && message ? message : undefined;
}

/**
 * What the box says about a refused subscription. An address the server's schema refused is named
 * by a `details` entry of the error (its message is worded for developers); any other refusal says
 * its own message.
 */
export function subscriptionRefusal(body: unknown): string {
  const { details } = (body ?? {}) as { details?: unknown };
  const refusedAddress = Array.isArray(details) && details.some((d: unknown) => (d as { field?: unknown } | null)?.field === 'body.email');
  return refusedAddress ? NEWSLETTER_MESSAGES.invalidAddress : (messageOf(body) ?? NEWSLETTER_MESSAGES.failed);
}

export function enhanceNewsletterForm(form: HTMLElement): () => void {
  if (!(form instanceof HTMLFormElement)) return () => undefined;
  const input = form.querySelector<HTMLInputElement>('input[type="email"]')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const status = form.querySelector<HTMLElement>('[role="status"]')!;
  const honeypot = form.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`);
  const guard = formTokenGuard('newsletter');
  let busy = false;

  const say = (kind: 'done' | 'error' | 'idle', message = '') => {
    status.textContent = message;
    status.className = kind === 'error' ? 'mt-2 text-sm text-red-300' : 'mt-2 text-sm text-emerald-300';
    if (kind === 'error') input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  const setBusy = (value: boolean) => {
    busy = value;
    button.disabled = value;
    button.textContent = value ? 'Subscribing...' : 'Subscribe';
  };

  const onFocus = () => void guard.prepare().catch(() => undefined);
  const onInput = () => {
    if (input.getAttribute('aria-invalid')) say('idle');
  };
  const onSubmit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (busy) return;
    const address = input.value.trim();
    if (!EMAIL.test(address)) {
      say('error', NEWSLETTER_MESSAGES.invalidAddress);
      return;
    }
    setBusy(true);
    try {
      const message = await subscribe({ ...(await guard.fields(honeypot?.value ?? '')), email: address });
      say('done', message);
      input.value = '';
      // Without a mail transport the server says no confirmation mail can leave: no 'Check your inbox' then.
      toast({ title: message === NEWSLETTER_MESSAGES.checkInbox ? 'Check your inbox' : 'Not subscribed yet', description: message, scope: 'newsletter-subscribe' });
      guard.reset();
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : NEWSLETTER_MESSAGES.failed;
      say('error', message);
      toast({ title: 'Subscription failed', description: message, variant: 'destructive', scope: 'newsletter-subscribe' });
      if (message === FORM_MESSAGES.expired) guard.reset();
    } finally {
      setBusy(false);
    }
  };
  input.addEventListener('focus', onFocus);
  input.addEventListener('input', onInput);
  form.addEventListener('submit', onSubmit);
  form.noValidate = true;
  form.dataset.ready = 'true';
  return () => {
    input.removeEventListener('focus', onFocus);
    input.removeEventListener('input', onInput);
    form.removeEventListener('submit', onSubmit);
    delete form.dataset.ready;
  };
}
