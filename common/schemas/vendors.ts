import '../zod-setup.ts';
import { z } from 'zod';
import { refineSingleLine } from './text.ts';
import type { SameKeys } from './form-check.ts';
import {
  invalidEmailMessage,
  lineFieldWords,
  missingFieldMessage,
  tooLongFieldMessage,
  VENDOR_TEXT_FIELDS,
  type VendorFieldName,
} from './vendor-form.ts';
import { multiline, multilineString } from './line-endings.ts';
import { okResponse } from './ok-response.ts';
import { webAddressOrEmpty } from './links.ts';

// The vendor registration form of the specification (sections 3, 5 and 9), shared by the form in
// the browser and the API route, so both refuse the same things with the same words. The words, the
// field order, the file rules and the rules of the browser's check are in vendor-form.ts (decision 144).

export * from './vendor-form.ts';

// A one-line field refuses line breaks and invisible characters (decision 195); a multi-line field
// (an address, a list) stores its line breaks as LF (decision 200).
type Shape = 'line' | 'lines';
const trimmed = (field: string, shape: Shape | undefined, isRequired: boolean) => {
  const text = isRequired ? z.string({ error: missingFieldMessage(field) }) : z.string();
  if (shape === 'lines') return multiline(text).trim();
  return shape === 'line' ? refineSingleLine(text.trim(), lineFieldWords(field)) : text.trim();
};
const required = (field: string, max: number, shape?: Shape) =>
  trimmed(field, shape, true)
    .min(1, missingFieldMessage(field))
    .max(max, tooLongFieldMessage(field, max));
const optional = (field: string, max: number, shape?: Shape) =>
  trimmed(field, shape, false)
    .max(max, tooLongFieldMessage(field, max))
    .optional()
    .default('');
const email = (field: string, isRequired: boolean) => {
  const valid = z.email(invalidEmailMessage(field)).max(254);
  return isRequired
    ? required(field, 254).pipe(valid)
    : optional(field, 254).pipe(z.union([z.literal(''), valid]));
};

/** Every text field of the form, in the order the form shows them (the first problem is reported). */
export const vendorApplicationFieldsSchema = z.object({
  // Company Information
  companyName: required('companyName', 200, 'line'),
  companyPhone: required('companyPhone', 50, 'line'),
  companyAddress: required('companyAddress', 500, 'lines'),
  companyEmail: email('companyEmail', true),
  // Issue 45: a web address when given, as the form's field (type url, 'https://') asks.
  website: webAddressOrEmpty(optional('website', 300, 'line')),
  previousAddress: optional('previousAddress', 500, 'lines'),
  // Contact Person
  contactPersonName: required('contactPersonName', 200, 'line'),
  contactPersonAddress: optional('contactPersonAddress', 500, 'lines'),
  contactPersonEmail: email('contactPersonEmail', false),
  contactPersonPhone: optional('contactPersonPhone', 50, 'line'),
  // Additional Information
  businessType: required('businessType', 200, 'line'),
  taxId: required('taxId', 100, 'line'),
  registrationNumber: required('registrationNumber', 100, 'line'),
  compliant: z.enum(['Yes', 'No'], { error: missingFieldMessage('compliant') }),
  certifications: optional('certifications', 2000, 'lines'),
  experience: optional('experience', 4000, 'lines'),
  references: optional('references', 4000, 'lines'),
  bankDetails: required('bankDetails', 1000, 'lines'),
});
export type VendorApplicationFields = z.infer<typeof vendorApplicationFieldsSchema>;
// vendor-form.ts names the fields without importing this file (no import cycle); the build fails
// when the two lists differ.
const _sameFieldNames: SameKeys<keyof VendorApplicationFields, VendorFieldName> = true;

// ---- Staff review

export const VENDOR_STATUSES = ['new', 'under-review', 'approved', 'rejected'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];
export const VENDOR_STATUS_LABELS: Record<VendorStatus, string> = {
  new: 'New',
  'under-review': 'Under review',
  approved: 'Approved',
  rejected: 'Rejected',
};
/** The pipeline new → under review → approved or rejected; a decision may be reopened for review. */
export const VENDOR_STATUS_NEXT: Record<VendorStatus, readonly VendorStatus[]> = {
  new: ['under-review'],
  'under-review': ['approved', 'rejected'],
  approved: ['under-review'],
  rejected: ['under-review'],
};

const VENDOR_COPY_STATES = ['sent', 'later', 'none'] as const;
export type VendorCopyState = (typeof VENDOR_COPY_STATES)[number];

export const vendorSubmitResponseSchema = okResponse({
  message: z.string(),
  reference: z.string(),
  /**
   * The applicant's copy: e-mailed, to be e-mailed by a retry, or not e-mailed (no mail transport),
   * so the confirmation promises no mail that will not leave (decision 210).
   */
  copy: z.enum(VENDOR_COPY_STATES),
});
export type VendorSubmitResponse = z.infer<typeof vendorSubmitResponseSchema>;

export const VENDOR_LIST_PAGE_SIZE = 50;
export const vendorListQuerySchema = z.object({
  status: z.enum(VENDOR_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

const vendorApplicationSummarySchema = z.object({
  _id: z.uuid(),
  reference: z.string(),
  companyName: z.string(),
  companyEmail: z.string(),
  contactPersonName: z.string(),
  businessType: z.string(),
  status: z.enum(VENDOR_STATUSES),
  documentCount: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type VendorApplicationSummary = z.infer<typeof vendorApplicationSummarySchema>;

export const vendorListResponseSchema = okResponse({
  applications: z.array(vendorApplicationSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type VendorListResponse = z.infer<typeof vendorListResponseSchema>;

const vendorDocumentSchema = z.object({
  _id: z.uuid(),
  kind: z.enum(['certification', 'company-profile']),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
});

const vendorStatusChangeSchema = z.object({
  _id: z.uuid(),
  fromStatus: z.enum(VENDOR_STATUSES).nullable(),
  toStatus: z.enum(VENDOR_STATUSES),
  note: z.string(),
  changedBy: z.object({ _id: z.uuid().nullable(), name: z.string() }).nullable(),
  changedAt: z.iso.datetime(),
});

const vendorApplicationDetailSchema = vendorApplicationSummarySchema.extend({
  fields: z.object(
    Object.fromEntries(VENDOR_TEXT_FIELDS.map((k) => [k, z.string()])) as Record<keyof VendorApplicationFields, z.ZodString>,
  ),
  documents: z.array(vendorDocumentSchema),
  history: z.array(vendorStatusChangeSchema),
  nextStatuses: z.array(z.enum(VENDOR_STATUSES)),
});
export type VendorApplicationDetail = z.infer<typeof vendorApplicationDetailSchema>;
export const vendorDetailResponseSchema = okResponse({ application: vendorApplicationDetailSchema });
export type VendorDetailResponse = z.infer<typeof vendorDetailResponseSchema>;

/** The longest staff note on a status change; the review form takes it from here. */
export const VENDOR_NOTE_MAX_CHARS = 2000;
export const vendorStatusUpdateSchema = z.object({
  status: z.enum(VENDOR_STATUSES),
  note: multilineString().trim().max(VENDOR_NOTE_MAX_CHARS).default(''),
});
export type VendorStatusUpdate = z.input<typeof vendorStatusUpdateSchema>;
