import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Info, TriangleAlert } from 'lucide-react';
import { PATHS } from '../../../common/paths.ts';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { financeSettingsBodySchema, formatBp, type FinanceSettings } from '../../../common/schemas/invoices.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { useFailureToast } from '../../components/portal/notify.ts';
import { detailErrors, firstInvalid, schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, SubmitButton } from '../../components/forms/fields.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { useFinanceSettings, useSaveFinanceSettings } from './finance-admin-api.ts';

// The invoice settings (issue 26, decision 298): numbering, VAT, terms, TIN and bank details.

const FIELDS = ['invoicePrefix', 'creditNotePrefix', 'vatRate', 'paymentTermsDays', 'taxId', 'bankName', 'bankAccountName', 'bankAccountNumber'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const valuesOf = (s: FinanceSettings): Values => ({
  invoicePrefix: s.invoicePrefix,
  creditNotePrefix: s.creditNotePrefix,
  vatRate: formatBp(s.vatRateBp).replace(/\s*%$/, ''),
  paymentTermsDays: String(s.paymentTermsDays),
  taxId: s.taxId,
  bankName: s.bankName,
  bankAccountName: s.bankAccountName,
  bankAccountNumber: s.bankAccountNumber,
});

/** Whether invoices can be issued: the TIN and every bank detail are set. */
const readyToIssue = (s: FinanceSettings) => Boolean(s.taxId && s.bankName && s.bankAccountName && s.bankAccountNumber);

const fieldId = (base: string, f: Field) => `${base}-${f}`;
const fieldsetClass = 'grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900';
const legendClass = 'px-1 text-base font-semibold';

function SettingsForm({ settings }: { settings: FinanceSettings }) {
  const base = useId();
  const save = useSaveFinanceSettings();
  const [values, setValues] = useState<Values>(() => valuesOf(settings));
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = (f: Field) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [f]: value }));
    setErrors((current) => {
      const rest = { ...current };
      delete rest[f];
      return rest;
    });
  };

  const showErrors = (next: FieldErrors<Field>) => {
    setErrors(next);
    const first = firstInvalid(FIELDS, next);
    if (first) setTimeout(() => document.getElementById(fieldId(base, first))?.focus(), 0);
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    // The browser runs the server's own check first, so the messages read the same.
    const checked = schemaErrors<Field>(financeSettingsBodySchema, values);
    if (Object.keys(checked).length > 0) {
      showErrors(checked);
      setFormError('Some fields need a look: see the messages under them.');
      return;
    }
    try {
      const saved = await save.mutateAsync(values);
      setValues(valuesOf(saved.settings));
      setErrors({});
      toast({ title: 'Invoice settings saved' });
    } catch (err) {
      const fromServer = detailErrors<Field>(err);
      showErrors(fromServer);
      setFormError(err instanceof ApiRequestError ? err.message : 'Failed to save the invoice settings');
    }
  }

  const field = (f: Field, label: string, extra: { hint?: string; inputMode?: 'numeric' | 'decimal' | 'text'; autoComplete?: string; maxLength?: number; className?: string } = {}) => (
    <InputField
      id={fieldId(base, f)}
      label={label}
      required={f !== 'taxId' && !f.startsWith('bank')}
      hint={extra.hint}
      error={errors[f]}
      value={values[f]}
      onChange={set(f)}
      inputMode={extra.inputMode}
      autoComplete={extra.autoComplete ?? 'off'}
      maxLength={extra.maxLength}
      className={extra.className}
    />
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={save.isPending} className="grid gap-4">
      <div className="flex gap-3 rounded-lg border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="grid gap-1">
          <p>
            These settings apply to invoices and credit notes issued from now on. Documents already issued keep the numbers, VAT rate, terms and bank
            details they were issued with.
          </p>
          <p>Invoices cannot be issued until the TIN and the bank details are set.</p>
        </div>
      </div>
      {readyToIssue(settings) ? null : (
        <p className="flex gap-3 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>The TIN or bank details are missing: invoices cannot be issued yet.</span>
        </p>
      )}
      <FormError message={formError} />

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>Numbering</legend>
        {field('invoicePrefix', 'Invoice prefix', { hint: 'Capital letters or digits, up to 10, such as INV', maxLength: 10 })}
        {field('creditNotePrefix', 'Credit note prefix', { hint: 'Capital letters or digits, up to 10, such as CN', maxLength: 10 })}
      </fieldset>

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>Tax and terms</legend>
        {field('vatRate', 'VAT rate (%)', { hint: 'Per cent, such as 7.5; 0 for no VAT', inputMode: 'decimal' })}
        {field('paymentTermsDays', 'Payment terms (days)', { hint: 'Days from issue to the due date', inputMode: 'numeric' })}
        {field('taxId', 'TIN', { hint: 'The company’s Tax Identification Number, printed on every invoice', className: 'sm:col-span-2' })}
      </fieldset>

      <fieldset className={fieldsetClass}>
        <legend className={legendClass}>Bank details</legend>
        {field('bankName', 'Bank name')}
        {field('bankAccountName', 'Account name')}
        {field('bankAccountNumber', 'Account number', { hint: 'The 10-digit NUBAN', inputMode: 'numeric', maxLength: 10 })}
      </fieldset>

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <SubmitButton busy={save.isPending} busyLabel="Saving...">
          Save settings
        </SubmitButton>
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {settings.updatedAt ? (
            <>
              Last saved <time dateTime={settings.updatedAt}>{formatDateTimeWithZone(settings.updatedAt)}</time>
            </>
          ) : (
            'Not saved yet: these are the defaults.'
          )}
        </p>
      </div>
    </form>
  );
}

/** The invoice settings page's content: loading, failure with retry, or the form. */
export function FinanceSettingsPanel() {
  const settings = useFinanceSettings();
  useFailureToast(settings.error, 'Failed to load the invoice settings');
  return (
    <div className="grid gap-4">
      <p>
        <Link to={PATHS.adminFinance} className="text-sm font-medium text-brand-700 underline underline-offset-2 hover:no-underline dark:text-sky-300">
          Back to the finance overview
        </Link>
      </p>
      {settings.isPending ? (
        <InlineLoading label="Loading the invoice settings..." />
      ) : settings.data ? (
        <SettingsForm settings={settings.data.settings} />
      ) : (
        <ErrorState title="Failed to load the invoice settings" error={settings.error} onRetry={() => void settings.refetch()} />
      )}
    </div>
  );
}
