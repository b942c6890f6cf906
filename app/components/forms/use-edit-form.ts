import { useState } from 'react';
import type { z } from 'zod';
import { toastFailure } from '../portal/notify.ts';
import type { scopedToasts } from '../ui/toast-store.ts';
import { blankErrors, detailErrors, schemaErrors, type FieldErrors } from './field-errors.ts';

type FormToasts = ReturnType<typeof scopedToasts>;

/**
 * An 'Edit ...' dialog over a record's text fields (decision 235): the form starts again from the
 * record each time it opens, a field's message goes once the field is edited, and only what changed
 * is sent, so another staff member's correction of another field stands.
 */
export function useEditForm<F extends Record<string, string>>(initialOf: () => F, toasts: FormToasts) {
  type Key = keyof F & string;
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<F>(initialOf);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<Key>>({});

  function openDialog() {
    setForm(initialOf());
    setFieldErrors({});
    setOpen(true);
  }

  const set = (key: Key) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
    setFieldErrors((errors) => {
      const rest = { ...errors };
      delete rest[key];
      return rest;
    });
  };

  /**
   * What to send, or null when there is nothing to send: a required field is blank or the shared
   * schema refuses the change (the messages are shown), or nothing changed (the dialog closes).
   * `checked` is what the schema reads, for rules that span fields which did not all change.
   */
  function changesToSend(rules: { required: Partial<Record<Key, string>>; requiredTitle: string; schema: z.ZodType; failedTitle: string; checked?: (changes: Partial<F>) => unknown }): Partial<F> | null {
    toasts.clear(); // the last attempt's messages are no longer true
    const blank = blankErrors<Key>(form, rules.required);
    if (Object.keys(blank).length > 0) {
      setFieldErrors(blank);
      toasts.show({ title: rules.requiredTitle, variant: 'destructive' });
      return null;
    }
    const initial = initialOf();
    const changes = Object.fromEntries(Object.entries(form).filter(([key, value]) => value !== initial[key])) as Partial<F>;
    if (Object.keys(changes).length === 0) {
      setOpen(false);
      return null;
    }
    const errors = schemaErrors<Key>(rules.schema, rules.checked ? rules.checked(changes) : changes);
    const first = Object.values(errors)[0];
    if (first) {
      setFieldErrors(errors);
      toasts.show({ title: rules.failedTitle, description: first, variant: 'destructive' });
      return null;
    }
    return changes;
  }

  /** A refused save: the server's field messages (a 409 clash on the field `clashField` names), and the failure toast. */
  function failed(title: string, err: unknown, clashField?: (message: string) => Key | null) {
    setFieldErrors(detailErrors<Key>(err, clashField));
    toastFailure(title, err);
  }

  return { open, close: () => setOpen(false), openDialog, form, fieldErrors, set, changesToSend, failed };
}
