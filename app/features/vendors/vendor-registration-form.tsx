import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { CheckCircle2, FileText, Paperclip, X } from 'lucide-react';
import {
  isAcceptedVendorFileName,
  VENDOR_CERTIFICATION_FILES_FIELD,
  VENDOR_CERTIFICATION_FILES_MAX,
  VENDOR_COMPANY_PROFILE_FIELD,
  VENDOR_FIELD_LABELS,
  VENDOR_FILE_ACCEPT,
  VENDOR_FILE_MAX_BYTES,
  VENDOR_MESSAGES,
  VENDOR_TEXT_FIELDS,
  vendorFilesProblem,
  VENDOR_FORM_RULES,
} from '../../../common/schemas/vendor-form.ts';
import { checkForm } from '../../../common/schemas/form-check.ts';
import type { VendorApplicationFields, VendorCopyState } from '../../../common/schemas/vendors.ts';
import { FORM_MESSAGES } from '../../../common/form-guard.ts';
import { FilePicker } from '../../components/forms/file-picker.tsx';
import { HoneypotField } from '../../components/forms/honeypot-field.tsx';
import { InputField, RequiredMark, SubmitButton, TextAreaField } from '../../components/forms/fields.tsx';
import { useTextFields } from '../../components/forms/use-text-fields.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useFormGuard } from '../../lib/form-guard.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { submitVendorApplication } from './vendor-submit.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('vendor-form');

type Field = keyof VendorApplicationFields;
type Values = Record<Field, string>;

const EMPTY: Values = Object.fromEntries(VENDOR_TEXT_FIELDS.map((k) => [k, ''])) as Values;
const REQUIRED = new Set<Field>(['companyName', 'companyPhone', 'companyAddress', 'companyEmail', 'contactPersonName', 'businessType', 'taxId', 'registrationNumber', 'compliant', 'bankDetails']);

const sizeWords = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const fail = (title: string, description: string) => toasts.show({ title, description, variant: 'destructive' });

const sectionClass = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900';
const legendClass = 'float-left mb-4 w-full text-xl font-semibold text-brand-800 dark:text-sky-200';

// Only a copy that left (or is being retried) is promised: without a mail transport none is sent.
const VENDOR_COPY_TEXT: Record<VendorCopyState, string> = {
  sent: 'We have e-mailed you a copy; please quote it when you contact us.',
  later: 'We will e-mail you a copy shortly; please quote it when you contact us.',
  none: 'Please note it down and quote it when you contact us.',
};

/**
 * The vendor registration form of the specification: four sections, the required fields checked
 * with the specification's words, files checked by count, size and type before sending, a busy label,
 * a reference number on success, and everything typed kept when sending fails.
 */
export function VendorRegistrationForm() {
  const { values, setValues, invalid, setInvalid, elements, bind: bindText, refuse } = useTextFields<Field>(EMPTY);
  const [certifications, setCertifications] = useState<File[]>([]);
  const [companyProfile, setCompanyProfile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [reference, setReference] = useState<string | null>(null);
  const [copy, setCopy] = useState<VendorCopyState>('none');
  const successRef = useRef<HTMLDivElement>(null);
  const certInput = useRef<HTMLInputElement>(null);
  const profileInput = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const guard = useFormGuard('vendor');
  const ids = { certs: useId(), profile: useId(), compliant: useId() };

  const bind = (name: Field) => bindText(name, VENDOR_FIELD_LABELS[name], REQUIRED.has(name));

  function addCertifications(e: ChangeEvent<HTMLInputElement>) {
    const chosen = Array.from(e.target.files ?? []);
    e.target.value = ''; // so choosing the same file again fires a change
    let next = [...certifications];
    for (const file of chosen) {
      if (!isAcceptedVendorFileName(file.name)) fail('Invalid File Type', VENDOR_MESSAGES.wrongFileType(file.name));
      else if (file.size > VENDOR_FILE_MAX_BYTES) fail('File Too Large', VENDOR_MESSAGES.fileTooLarge(file.name));
      else next.push(file);
    }
    if (next.length > VENDOR_CERTIFICATION_FILES_MAX) {
      next = next.slice(0, VENDOR_CERTIFICATION_FILES_MAX);
      fail('Validation Error', VENDOR_MESSAGES.tooManyCertifications);
    }
    setCertifications(next);
  }

  function chooseProfile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!isAcceptedVendorFileName(file.name)) return fail('Invalid File Type', VENDOR_MESSAGES.wrongFileType(file.name));
    if (file.size > VENDOR_FILE_MAX_BYTES) return fail('File Too Large', VENDOR_MESSAGES.companyProfileTooLarge);
    setCompanyProfile(file);
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (busy) return;
    // The rules of vendorApplicationFieldsSchema, checked without zod (decision 144).
    const parsed = checkForm(VENDOR_FORM_RULES, values);
    if (!parsed.success) {
      fail('Validation Error', parsed.message);
      refuse(parsed.field);
      return;
    }
    const problem = vendorFilesProblem(certifications, companyProfile);
    if (problem) return fail(problem.title, problem.message);

    setBusy(true);
    setReference(null);
    try {
      const body = new FormData();
      // The guard fields go first, so the server judges the submission before any file arrives.
      for (const [k, v] of Object.entries(await guard.guardFields())) body.append(k, v);
      for (const k of VENDOR_TEXT_FIELDS) body.append(k, values[k]);
      for (const file of certifications) body.append(VENDOR_CERTIFICATION_FILES_FIELD, file, file.name);
      if (companyProfile) body.append(VENDOR_COMPANY_PROFILE_FIELD, companyProfile, companyProfile.name);
      const result = await submitVendorApplication(body);
      toasts.show({ title: 'Success!', description: VENDOR_MESSAGES.submitted });
      setReference(result.reference);
      setCopy(result.copy);
      setValues(EMPTY);
      setCertifications([]);
      setCompanyProfile(null);
      guard.reset();
      requestAnimationFrame(() => successRef.current?.focus());
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : VENDOR_MESSAGES.failed;
      fail('Error', message);
      if (message === FORM_MESSAGES.expired) guard.reset();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate data-ready={hydrated} className="relative space-y-6" aria-describedby="vendor-form-required-note">
      <p id="vendor-form-required-note" className="text-sm text-slate-700 dark:text-slate-300">
        Fields marked <RequiredMark /> <span className="sr-only">with an asterisk</span> are required.
      </p>

      {reference ? (
        <div
          ref={successRef}
          tabIndex={-1}
          role="status"
          className="flex gap-3 rounded-xl border border-emerald-300 bg-emerald-50 p-5 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50"
        >
          <CheckCircle2 className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
          <div>
            <p className="font-semibold">{VENDOR_MESSAGES.submitted}</p>
            <p className="mt-1">
              Your reference number is <strong className="font-mono text-lg">{reference}</strong>. {VENDOR_COPY_TEXT[copy]}
            </p>
          </div>
        </div>
      ) : null}

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Company Information</legend>
        <div className="clear-both grid gap-4 sm:grid-cols-2">
          <InputField {...bind('companyName')} autoComplete="organization" maxLength={200} />
          <InputField {...bind('companyPhone')} type="tel" autoComplete="tel" maxLength={50} />
          <InputField {...bind('companyEmail')} type="email" autoComplete="email" maxLength={254} />
          <InputField {...bind('website')} type="url" autoComplete="url" placeholder="https://" maxLength={300} />
          <TextAreaField {...bind('companyAddress')} rows={3} autoComplete="street-address" maxLength={500} />
          <TextAreaField {...bind('previousAddress')} rows={3} maxLength={500} />
        </div>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Contact Person</legend>
        <div className="clear-both grid gap-4 sm:grid-cols-2">
          <InputField {...bind('contactPersonName')} autoComplete="name" maxLength={200} />
          <InputField {...bind('contactPersonEmail')} type="email" maxLength={254} />
          <InputField {...bind('contactPersonPhone')} type="tel" maxLength={50} />
          <TextAreaField {...bind('contactPersonAddress')} rows={3} maxLength={500} />
        </div>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Additional Information</legend>
        <div className="clear-both grid gap-4 sm:grid-cols-2">
          <InputField {...bind('businessType')} hint="For example: supplier, contractor, consultant" maxLength={200} />
          <InputField {...bind('taxId')} maxLength={100} />
          <InputField {...bind('registrationNumber')} hint="Your company registration (RC) number" maxLength={100} />
          <div
            role="radiogroup"
            aria-labelledby={`${ids.compliant}-label`}
            aria-required="true"
            aria-invalid={invalid === 'compliant' || undefined}
            aria-describedby={`${ids.compliant}-hint`}
            className="min-w-0"
          >
            <p id={`${ids.compliant}-label`} className={labelClass}>
              {VENDOR_FIELD_LABELS.compliant}
              <RequiredMark />
            </p>
            <p id={`${ids.compliant}-hint`} className="mb-2 text-xs text-slate-600 dark:text-slate-400">
              Does your company meet the regulatory requirements for its line of business?
            </p>
            <div className="flex gap-3">
              {(['Yes', 'No'] as const).map((option, i) => (
                <label
                  key={option}
                  className="flex min-h-11 flex-1 cursor-pointer items-center gap-2 rounded-md border border-slate-400 px-3 has-checked:border-brand-700 has-checked:bg-brand-50 dark:border-slate-500 dark:has-checked:border-sky-300 dark:has-checked:bg-slate-800"
                >
                  <input
                    type="radio"
                    name="compliant"
                    value={option}
                    checked={values.compliant === option}
                    ref={i === 0 ? (el) => void elements.current.set('compliant', el) : undefined}
                    onChange={() => {
                      setValues((v) => ({ ...v, compliant: option }));
                      if (invalid === 'compliant') setInvalid(null);
                    }}
                    className="size-4 accent-brand-700"
                  />
                  {option}
                </label>
              ))}
            </div>
          </div>
          <TextAreaField {...bind('certifications')} rows={3} hint="The certifications you hold, such as ISO 9001" maxLength={2000} />
          <TextAreaField {...bind('experience')} rows={3} hint="Relevant projects and years in business" maxLength={4000} />
          <TextAreaField {...bind('references')} rows={3} hint="Clients we may contact" maxLength={4000} />
          <TextAreaField {...bind('bankDetails')} rows={3} hint="Bank name, account name and account number" maxLength={1000} />
        </div>
      </fieldset>

      <fieldset className={sectionClass}>
        <legend className={legendClass}>Supporting Documents</legend>
        <p className="clear-both mb-4 text-sm text-slate-700 dark:text-slate-300">
          PDF, Word, Excel, JPG or PNG files, 10 MB each and 20 MB altogether.
        </p>
        <div className="grid gap-6 sm:grid-cols-2">
          <div>
            <label htmlFor={ids.certs} id={`${ids.certs}-label`} className={labelClass}>
              Certification files (up to {VENDOR_CERTIFICATION_FILES_MAX})
            </label>
            <FilePicker
              id={ids.certs}
              labelledBy={`${ids.certs}-label`}
              inputRef={certInput}
              buttonText={certifications.length ? 'Add files' : 'Choose files'}
              count={certifications.length}
              multiple
              accept={VENDOR_FILE_ACCEPT}
              onChange={addCertifications}
              disabled={certifications.length >= VENDOR_CERTIFICATION_FILES_MAX}
            />
            <FileList files={certifications} onRemove={(i) => setCertifications((list) => list.filter((_, j) => j !== i))} label="Chosen certification files" />
          </div>
          <div>
            <label htmlFor={ids.profile} id={`${ids.profile}-label`} className={labelClass}>
              Company profile (one file)
            </label>
            <FilePicker
              id={ids.profile}
              labelledBy={`${ids.profile}-label`}
              inputRef={profileInput}
              buttonText={companyProfile ? 'Replace file' : 'Choose file'}
              count={companyProfile ? 1 : 0}
              accept={VENDOR_FILE_ACCEPT}
              onChange={chooseProfile}
            />
            <FileList files={companyProfile ? [companyProfile] : []} onRemove={() => setCompanyProfile(null)} label="Chosen company profile" />
          </div>
        </div>
      </fieldset>

      <HoneypotField inputRef={guard.honeypotRef} />
      <div className="flex justify-end">
        <SubmitButton busy={busy} ready={hydrated} busyLabel="Submitting...">
          Submit Registration
        </SubmitButton>
      </div>
    </form>
  );
}

function FileList({ files, onRemove, label }: { files: File[]; onRemove: (index: number) => void; label: string }) {
  if (!files.length) return null;
  return (
    <ul aria-label={label} className="mt-3 space-y-2">
      {files.map((file, i) => (
        <li key={`${file.name}-${i}`} className="flex items-center gap-2 rounded-md bg-slate-100 px-3 py-1 text-sm dark:bg-slate-800">
          {file.type.startsWith('image/') ? <Paperclip className="size-4 shrink-0" aria-hidden="true" /> : <FileText className="size-4 shrink-0" aria-hidden="true" />}
          <span className="min-w-0 flex-1 truncate">{file.name}</span>
          <span className="shrink-0 text-slate-600 dark:text-slate-400">{sizeWords(file.size)}</span>
          <button
            type="button"
            onClick={() => onRemove(i)}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-md hover:bg-slate-200 dark:hover:bg-slate-700"
            aria-label={`Remove ${file.name}`}
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}
