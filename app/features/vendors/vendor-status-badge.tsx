import { clsx } from 'clsx';
import { VENDOR_STATUS_LABELS, type VendorStatus } from '../../../common/schemas/vendors.ts';

const STYLE: Record<VendorStatus, string> = {
  new: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
  'under-review': 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  approved: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  rejected: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
};

export function VendorStatusBadge({ status }: { status: VendorStatus }) {
  return <span className={clsx('inline-flex rounded-full px-3 py-1 text-sm font-semibold', STYLE[status])}>{VENDOR_STATUS_LABELS[status]}</span>;
}
