// 'Talk to our team': the hand-off form under the conversation. It is a contact message, so it has
// the public forms' bot guard (the shared token guard and honeypot, CHAT_HANDOFF_GUARD's timing).
import { HONEYPOT_FIELD } from '../../../common/form-guard.ts';
import { CHAT_HANDOFF_GUARD, CHAT_TEXTS } from '../../../common/schemas/chat-texts.ts';
import { formTokenGuard } from '../../lib/form-token.ts';
import { el, FIELD, PRIMARY, SECONDARY } from './chat-dom.ts';

interface HandoffOptions {
  conversationId: () => string | undefined;
  onCancel: () => void;
  onSent: () => void;
}

/**
 * What to tell the visitor about a refused hand-off. A field error's `message` names the field for
 * developers ('body.email: ...'); its words for people are the `details` entry's own message.
 */
function refusalWords(body: unknown): string {
  const { message, details } = (body ?? {}) as { message?: unknown; details?: unknown };
  const first: unknown = Array.isArray(details) ? details[0] : undefined;
  const fieldMessage = first && typeof first === 'object' && 'message' in first ? first.message : undefined;
  if (typeof fieldMessage === 'string' && fieldMessage) return fieldMessage;
  return typeof message === 'string' && message ? message : CHAT_TEXTS.handoffFailed;
}

function field(name: string, labelText: string, type: string, required: boolean, autocomplete: string) {
  const wrap = el('div');
  const id = `chat-handoff-${name}`;
  const input = el('input', { id, name, type, autocomplete, maxlength: name === 'phone' ? '50' : '200', class: FIELD });
  input.required = required;
  wrap.append(el('label', { for: id, class: 'font-medium' }, labelText), input);
  return wrap;
}

/** Builds the (hidden) hand-off form; `open` shows it ready to fill in and starts fetching the token. */
export function createHandoff(options: HandoffOptions) {
  const guard = formTokenGuard(CHAT_HANDOFF_GUARD);
  const form = el('form', { class: 'space-y-3 border-t border-slate-200 px-4 py-3 text-sm dark:border-slate-700', 'aria-labelledby': 'chat-handoff-title' });
  form.hidden = true;
  // The honeypot of the public forms: hidden from people and assistive technology.
  const trap = el('div', { class: 'hidden', 'aria-hidden': 'true' });
  const honeypot = el('input', { name: HONEYPOT_FIELD, type: 'text', tabindex: '-1', autocomplete: 'off' });
  trap.append(honeypot);
  const error = el('p', { role: 'alert', class: 'font-medium text-red-700 dark:text-red-300', 'data-chat-handoff-error': '' });
  const actions = el('div', { class: 'flex flex-wrap gap-2' });
  const submit = el('button', { type: 'submit', class: PRIMARY, 'data-chat-handoff-submit': '' }, CHAT_TEXTS.handoffSubmit);
  const cancel = el('button', { type: 'button', class: SECONDARY }, CHAT_TEXTS.handoffCancel);
  cancel.addEventListener('click', options.onCancel);
  actions.append(submit, cancel);
  form.append(
    el('h3', { id: 'chat-handoff-title', class: 'font-semibold' }, CHAT_TEXTS.handoffTitle),
    el('p', { class: 'text-slate-700 dark:text-slate-300' }, CHAT_TEXTS.handoffIntro),
    field('name', CHAT_TEXTS.handoffName, 'text', true, 'name'),
    field('email', CHAT_TEXTS.handoffEmail, 'email', true, 'email'),
    field('phone', CHAT_TEXTS.handoffPhone, 'tel', false, 'tel'),
    trap,
    error,
    actions,
  );

  const send = async () => {
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    submit.disabled = true;
    submit.textContent = CHAT_TEXTS.handoffBusy;
    error.textContent = '';
    try {
      const res = await fetch('/api/chat/handoff', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({
          conversationId: options.conversationId(),
          name: String(data.get('name') ?? ''),
          email: String(data.get('email') ?? ''),
          phone: String(data.get('phone') ?? ''),
          ...(await guard.fields(honeypot.value)),
        }),
      });
      if (!res.ok) {
        error.textContent = refusalWords(await res.json().catch(() => null));
        return;
      }
      guard.reset();
      form.reset();
      options.onSent();
    } catch {
      error.textContent = CHAT_TEXTS.handoffFailed;
    } finally {
      submit.disabled = false;
      submit.textContent = CHAT_TEXTS.handoffSubmit;
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void send();
  });

  const open = () => {
    form.hidden = false;
    error.textContent = '';
    // Issued when the form is shown; the server refuses a form sent back faster than people can.
    guard.prepare().catch(() => undefined);
    form.querySelector<HTMLInputElement>('input[name="name"]')!.focus();
  };
  return { form, open };
}
