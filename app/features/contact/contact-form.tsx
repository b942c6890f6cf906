import { useState, type FormEvent } from 'react';
import { FORM_MESSAGES } from '../../../common/form-guard.ts';
import { CONTACT_FORM_RULES, CONTACT_MESSAGE_MAX_CHARS, CONTACT_MESSAGE_ROWS, CONTACT_MESSAGES } from '../../../common/schemas/contact-form.ts';
import { checkForm } from '../../../common/schemas/form-check.ts';
import type { ContactMessageInput } from '../../../common/schemas/contact.ts';
import { HoneypotField } from '../../components/forms/honeypot-field.tsx';
import { InputField, RequiredMark, SubmitButton, TextAreaField } from '../../components/forms/fields.tsx';
import { useTextFields } from '../../components/forms/use-text-fields.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { apiFetch } from '../../lib/api.ts';
import { useFormGuard } from '../../lib/form-guard.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('contact-form');

type Field = keyof ContactMessageInput;
const EMPTY: Record<Field, string> = { name: '', email: '', phone: '', company: '', message: '' };

/**
 * The contact form: name, e-mail and message required, phone and company optional. The message is
 * stored for staff (who get an e-mail); on success the fields clear.
 */
export function ContactForm() {
  const { values, setValues, bind, refuse } = useTextFields<Field>(EMPTY);
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const guard = useFormGuard('contact');

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    toasts.clear(); // the last attempt's messages are no longer true
    // The rules of contactMessageFieldsSchema, checked without zod (decision 144).
    const parsed = checkForm(CONTACT_FORM_RULES, values);
    if (!parsed.success) {
      toasts.show({ title: 'Validation Error', description: parsed.message, variant: 'destructive' });
      refuse(parsed.field);
      return;
    }
    setBusy(true);
    try {
      const guardFields = await guard.guardFields();
      await apiFetch('/contact', { json: { ...guardFields, ...parsed.data }, fallbackMessage: CONTACT_MESSAGES.failed });
      toasts.show({ title: CONTACT_MESSAGES.sentTitle, description: CONTACT_MESSAGES.sentDescription });
      setValues(EMPTY);
      guard.reset();
    } catch (err) {
      const message = err instanceof Error ? err.message : '';
      // The specification's words first; the server's reason (a limit, an expired form) underneath.
      toasts.show({ title: CONTACT_MESSAGES.failed, description: message && message !== CONTACT_MESSAGES.failed ? message : undefined, variant: 'destructive' });
      if (message === FORM_MESSAGES.expired) guard.reset();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate data-ready={hydrated} className="relative space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Fields marked <RequiredMark /> <span className="sr-only">with an asterisk</span> are required.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField {...bind('name', 'Name', true)} autoComplete="name" maxLength={200} />
        <InputField {...bind('email', 'Email', true)} type="email" autoComplete="email" maxLength={254} />
        <InputField {...bind('phone', 'Phone')} type="tel" autoComplete="tel" maxLength={50} />
        <InputField {...bind('company', 'Company')} autoComplete="organization" maxLength={200} />
      </div>
      <TextAreaField {...bind('message', 'Message', true)} rows={CONTACT_MESSAGE_ROWS} maxLength={CONTACT_MESSAGE_MAX_CHARS} />
      <HoneypotField inputRef={guard.honeypotRef} />
      <SubmitButton busy={busy} ready={hydrated} busyLabel="Sending...">
        Send Message
      </SubmitButton>
    </form>
  );
}
