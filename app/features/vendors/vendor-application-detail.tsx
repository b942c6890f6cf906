import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, Download, Mail } from 'lucide-react';
import {
  VENDOR_FIELD_LABELS,
  VENDOR_NOTE_MAX_CHARS,
  VENDOR_STATUS_LABELS,
  type VendorApplicationDetail,
  type VendorApplicationFields,
  type VendorStatus,
} from '../../../common/schemas/vendors.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { TextAreaField } from '../../components/forms/fields.tsx';
import { RadioGroupField } from '../../components/forms/radio-group-field.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { PATHS } from '../../../common/paths.ts';
import { VendorStatusBadge } from './vendor-status-badge.tsx';
import { useChangeVendorStatus, useVendorApplication, vendorDocumentUrl } from './vendors-api.ts';
import { formatDateTime } from '../../../common/dates.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('vendor-status');

const sizeWords = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const panelClass = 'rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

const SECTIONS: { title: string; fields: (keyof VendorApplicationFields)[] }[] = [
  { title: 'Company Information', fields: ['companyName', 'companyPhone', 'companyEmail', 'website', 'companyAddress', 'previousAddress'] },
  { title: 'Contact Person', fields: ['contactPersonName', 'contactPersonEmail', 'contactPersonPhone', 'contactPersonAddress'] },
  {
    title: 'Additional Information',
    fields: ['businessType', 'taxId', 'registrationNumber', 'compliant', 'certifications', 'experience', 'references', 'bankDetails'],
  },
];

function FieldValue({ name, value }: { name: keyof VendorApplicationFields; value: string }) {
  if (!value) return <span className="text-slate-500 dark:text-slate-400">Not given</span>;
  if (name === 'companyEmail' || name === 'contactPersonEmail')
    return (
      <a href={`mailto:${value}`} className="break-all text-brand-700 underline underline-offset-4 dark:text-sky-300">
        {value}
      </a>
    );
  return <span className="break-words whitespace-pre-line">{value}</span>;
}

function StatusForm({ application }: { application: VendorApplicationDetail }) {
  const [status, setStatus] = useState<VendorStatus | ''>('');
  const [note, setNote] = useState('');
  const change = useChangeVendorStatus(application._id);
  if (!application.nextStatuses.length) return null;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!status) {
      toasts.show({ title: 'Choose a status', description: 'Choose where the application moves to.', variant: 'destructive' });
      return;
    }
    try {
      await change.mutateAsync({ status, note });
      toasts.show({ title: 'Application status updated', description: `${application.companyName} is now ${VENDOR_STATUS_LABELS[status].toLowerCase()}.` });
      setStatus('');
      setNote('');
    } catch (err) {
      toastFailure('Failed to update status', err);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <RadioGroupField
        legend="Move to"
        name="status"
        options={application.nextStatuses.map((s) => ({ value: s, label: VENDOR_STATUS_LABELS[s] }))}
        value={status}
        onChange={setStatus}
      />
      <TextAreaField label="Staff note" value={note} onChange={(e) => setNote(e.target.value)} rows={3} maxLength={VENDOR_NOTE_MAX_CHARS} />
      <button type="submit" className={buttonClass('primary')} disabled={change.isPending}>
        {change.isPending ? 'Updating...' : 'Update status'}
      </button>
    </form>
  );
}

/** Everything about one application: every field, the documents to download, the pipeline and its history. */
export function VendorApplicationDetailView({ id }: { id: string }) {
  const { data, error, isPending, refetch } = useVendorApplication(id);
  if (isPending) return <InlineLoading label="Loading application..." />;
  if (error || !data) return <ErrorState title="Failed to load the application" error={error} onRetry={() => void refetch()} />;
  const a = data.application;
  return (
    <div className="grid gap-4">
      <div>
        <Link to={PATHS.adminVendorApplications} className={buttonClass('ghost')}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          All applications
        </Link>
      </div>
      <section aria-labelledby="application-heading" className={panelClass}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id="application-heading" className="text-2xl font-bold break-words">
              {a.companyName}
            </h2>
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
              Reference <span className="font-mono">{a.reference}</span> · received {formatDateTime(a.createdAt)}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <VendorStatusBadge status={a.status} />
            <a href={`mailto:${a.companyEmail}?subject=${encodeURIComponent(`Your vendor registration ${a.reference}`)}`} className={buttonClass('secondary')}>
              <Mail className="size-4" aria-hidden="true" />
              Reply by e-mail
            </a>
          </div>
        </div>
      </section>

      <div className="grid gap-4 lg:grid-cols-[1fr_22rem]">
        <div className="grid content-start gap-4">
          {SECTIONS.map((section) => (
            <section key={section.title} aria-label={section.title} className={panelClass}>
              <h3 className="mb-3 text-lg font-semibold">{section.title}</h3>
              <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[12rem_1fr]">
                {section.fields.map((f) => (
                  <div key={f} className="contents">
                    <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{VENDOR_FIELD_LABELS[f]}</dt>
                    <dd className="mb-2 sm:mb-0">
                      <FieldValue name={f} value={a.fields[f]} />
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>

        <div className="grid content-start gap-4">
          <section aria-labelledby="documents-heading" className={panelClass}>
            <h3 id="documents-heading" className="mb-3 text-lg font-semibold">
              Supporting Documents
            </h3>
            {a.documents.length ? (
              <ul className="space-y-2">
                {a.documents.map((d) => (
                  <li key={d._id}>
                    <a href={vendorDocumentUrl(a._id, d._id)} download={d.name} className="flex min-h-11 items-center gap-3 rounded-md border border-slate-200 px-3 py-2 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800">
                      <Download className="size-4 shrink-0 text-brand-700 dark:text-sky-300" aria-hidden="true" />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium">
                          <span className="sr-only">Download </span>
                          {d.name}
                        </span>
                        <span className="block text-xs text-slate-600 dark:text-slate-400">
                          {d.kind === 'company-profile' ? 'Company profile' : 'Certification'} · {sizeWords(d.size)}
                        </span>
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-700 dark:text-slate-300">No documents were sent.</p>
            )}
          </section>

          <section aria-labelledby="status-heading" className={panelClass}>
            <h3 id="status-heading" className="mb-3 text-lg font-semibold">
              Review
            </h3>
            <StatusForm key={a.status} application={a} />
            <h4 className="mt-6 mb-2 font-semibold">History</h4>
            <ol className="space-y-3">
              {a.history.map((h) => (
                <li key={h._id} className="border-l-2 border-slate-300 pl-3 text-sm dark:border-slate-600">
                  <p className="font-medium">
                    {h.fromStatus ? `${VENDOR_STATUS_LABELS[h.fromStatus]} → ${VENDOR_STATUS_LABELS[h.toStatus]}` : `Received as ${VENDOR_STATUS_LABELS[h.toStatus].toLowerCase()}`}
                  </p>
                  <p className="text-slate-600 dark:text-slate-400">
                    {h.changedBy?.name ?? 'Unknown'} · {formatDateTime(h.changedAt)}
                  </p>
                  {h.note ? <p className="mt-1 whitespace-pre-line">{h.note}</p> : null}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </div>
  );
}
