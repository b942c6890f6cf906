import { useId, useRef, useState, type FormEvent } from 'react';
import { FlaskConical, Send } from 'lucide-react';
import {
  NEWSLETTER_BODY_MAX_CHARS,
  NEWSLETTER_ISSUE_MESSAGES,
  NEWSLETTER_SUBJECT_MAX_CHARS,
  newsletterIssueContentSchema,
  subscribersLabel,
  type NewsletterIssueContent,
} from '../../../common/schemas/newsletter.ts';
import { buttonClass } from '../../components/button-class.ts';
import { firstInvalid, schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, TextAreaField } from '../../components/forms/fields.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { useSendNewsletterIssue, useSendNewsletterTest } from './newsletter-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('newsletter-issue');

type Field = keyof NewsletterIssueContent;
/** The fields in the order the form shows them (focus goes to the first invalid one). */
const FIELDS: readonly Field[] = ['subject', 'body'];
const EMPTY: NewsletterIssueContent = { subject: '', body: '' };

/**
 * 'Write a newsletter': subject and plain-text body, a test to the signed-in staff member, and
 * 'Send to N subscribers' behind a confirmation naming N. Each draft carries one idempotency key, so
 * a double click or a retry after a lost answer never sends it twice.
 */
export function NewsletterIssueForm({ confirmedSubscribers }: { confirmedSubscribers: number | undefined }) {
  const id = useId();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [confirming, setConfirming] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const sendTest = useSendNewsletterTest();
  const sendIssue = useSendNewsletterIssue();
  const recipients = confirmedSubscribers ?? 0;

  /** The draft as the server will read it, or null after showing what is wrong. */
  function validDraft(): NewsletterIssueContent | null {
    const parsed = newsletterIssueContentSchema.safeParse(form);
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    const next = schemaErrors<Field>(newsletterIssueContentSchema, form);
    setErrors(next);
    (firstInvalid(FIELDS, next) === 'subject' ? subjectRef : bodyRef).current?.focus();
    toasts.show({ title: 'Please fill in required fields', description: next.subject ?? next.body, variant: 'destructive' });
    return null;
  }

  function startOver() {
    setForm(EMPTY);
    setIdempotencyKey(crypto.randomUUID());
    setConfirming(false);
  }

  async function onTest() {
    const draft = validDraft();
    if (!draft) return;
    try {
      const res = await sendTest.mutateAsync(draft);
      toasts.show({ title: res.mail === 'sent' ? 'Test sent' : 'Test not sent', description: res.message, variant: res.mail === 'sent' ? undefined : 'destructive' });
    } catch (err) {
      toastFailure(NEWSLETTER_ISSUE_MESSAGES.testFailed, err);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (validDraft()) setConfirming(true);
  }

  async function onConfirm() {
    const draft = validDraft();
    if (!draft || sendIssue.isPending) return;
    try {
      const res = await sendIssue.mutateAsync({ ...draft, idempotencyKey });
      toasts.show({ title: res.mail === 'not-configured' ? 'Newsletter not sent' : 'Newsletter sent', description: res.message, variant: res.mail === 'not-configured' ? 'destructive' : undefined });
      startOver();
    } catch (err) {
      toastFailure(NEWSLETTER_ISSUE_MESSAGES.sendFailed, err);
      // Refused as already sent: this draft is done. Any other failure keeps draft and key, so
      // trying again cannot send it twice.
      if (err instanceof ApiRequestError && err.status === 409) startOver();
      else setConfirming(false);
    }
  }

  // A field's message goes as soon as that field is edited: it described the value before.
  const edit = (field: Field) => (e: { target: { value: string } }) => (
    setForm((f) => ({ ...f, [field]: e.target.value })), setErrors((er) => ({ ...er, [field]: undefined }))
  );

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <h2 id={`${id}-heading`} className="mb-1 text-xl font-semibold">
        Write a newsletter
      </h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
        It goes to subscribers who confirmed their address. Each copy carries that subscriber&apos;s own one-click unsubscribe link.
      </p>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <InputField
          inputRef={subjectRef}
          id={`${id}-subject`}
          label="Subject"
          required
          value={form.subject}
          onChange={edit('subject')}
          maxLength={NEWSLETTER_SUBJECT_MAX_CHARS}
          autoComplete="off"
          hint={`Required, at most ${NEWSLETTER_SUBJECT_MAX_CHARS} characters (${form.subject.length} used).`}
          error={errors.subject}
        />
        <TextAreaField
          inputRef={bodyRef}
          id={`${id}-body`}
          label="Newsletter text"
          required
          rows={12}
          value={form.body}
          onChange={edit('body')}
          maxLength={NEWSLETTER_BODY_MAX_CHARS}
          hint={`Plain text: leave a blank line between paragraphs. At most ${NEWSLETTER_BODY_MAX_CHARS.toLocaleString('en-GB')} characters (${form.body.length.toLocaleString('en-GB')} used).`}
          error={errors.body}
        />
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:justify-end">
          {confirmedSubscribers === 0 ? (
            <p className="text-sm text-slate-600 sm:mr-auto dark:text-slate-300">Nobody has confirmed a subscription yet, so there is no one to send to.</p>
          ) : null}
          <button type="button" className={buttonClass('secondary')} onClick={() => void onTest()} disabled={sendTest.isPending}>
            <FlaskConical className="size-4" aria-hidden="true" />
            {sendTest.isPending ? 'Sending test...' : 'Send a test to me'}
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={!recipients}>
            <Send className="size-4" aria-hidden="true" />
            Send to {subscribersLabel(recipients)}
          </button>
        </div>
      </form>

      <ModalDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Send this newsletter?"
        description={`It goes to ${subscribersLabel(recipients)} now and cannot be called back.`}
      >
        <p className="mb-4 text-sm">
          <span className="font-semibold">Subject:</span> <span className="break-words">{form.subject}</span>
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass('secondary')} onClick={() => setConfirming(false)} disabled={sendIssue.isPending}>
            Cancel
          </button>
          <button type="button" className={buttonClass('primary')} onClick={() => void onConfirm()} disabled={sendIssue.isPending}>
            <Send className="size-4" aria-hidden="true" />
            {sendIssue.isPending ? 'Sending...' : `Send to ${subscribersLabel(recipients)}`}
          </button>
        </div>
      </ModalDialog>
    </section>
  );
}
