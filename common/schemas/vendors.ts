import { z } from 'zod';

// The vendor registration form of the specification (sections 3, 5 and 9), shared by the form in
// the browser and the API route, so both refuse the same things with the same words.

export const VENDOR_CERTIFICATION_FILES_MAX = 5;
export const VENDOR_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const VENDOR_TOTAL_MAX_BYTES = 20 * 1024 * 1024;
/** What the file pickers offer and the server accepts (checked again by the bytes on the server). */
export const VENDOR_FILE_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'jpg', 'jpeg', 'png'] as const;
export const VENDOR_FILE_ACCEPT = VENDOR_FILE_EXTENSIONS.map((e) => `.${e}`).join(',');

export const VENDOR_MESSAGES = {
  tooManyCertifications: `You can upload a maximum of ${VENDOR_CERTIFICATION_FILES_MAX} certification files`,
  fileTooLarge: (name: string) => `File ${name} exceeds 10MB limit`,
  companyProfileTooLarge: 'Company profile exceeds 10MB limit',
  totalTooLarge: 'Total attachments exceed 20MB limit',
  wrongFileType: (name: string) => `File ${name} is not an accepted type (PDF, Word, Excel, JPG or PNG)`,
  submitted: 'Your vendor registration has been submitted.',
  failed: 'Form submission failed',
} as const;

/** 'companyName' → 'company name': the words of the specification's message. */
export function fieldWords(field: string): string {
  return field.replace(/([A-Z])/g, ' $1').toLowerCase().trim();
}
export const missingFieldMessage = (field: string) => `Please fill in the ${fieldWords(field)} field`;

const required = (field: string, max: number) =>
  z
    .string({ error: missingFieldMessage(field) })
    .trim()
    .min(1, missingFieldMessage(field))
    .max(max, `The ${fieldWords(field)} field is too long (at most ${max} characters)`);
const optional = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `The ${fieldWords(field)} field is too long (at most ${max} characters)`)
    .optional()
    .default('');
const email = (field: string, isRequired: boolean) => {
  const valid = z.email(`Please enter a valid ${fieldWords(field)} address`).max(254);
  return isRequired
    ? required(field, 254).pipe(valid)
    : optional(field, 254).pipe(z.union([z.literal(''), valid]));
};

/** Every text field of the form, in the order the form shows them (the first problem is reported). */
export const vendorApplicationFieldsSchema = z.object({
  // Company Information
  companyName: required('companyName', 200),
  companyPhone: required('companyPhone', 50),
  companyAddress: required('companyAddress', 500),
  companyEmail: email('companyEmail', true),
  website: optional('website', 300),
  previousAddress: optional('previousAddress', 500),
  // Contact Person
  contactPersonName: required('contactPersonName', 200),
  contactPersonAddress: optional('contactPersonAddress', 500),
  contactPersonEmail: email('contactPersonEmail', false),
  contactPersonPhone: optional('contactPersonPhone', 50),
  // Additional Information
  businessType: required('businessType', 200),
  taxId: required('taxId', 100),
  registrationNumber: required('registrationNumber', 100),
  compliant: z.enum(['Yes', 'No'], { error: missingFieldMessage('compliant') }),
  certifications: optional('certifications', 2000),
  experience: optional('experience', 4000),
  references: optional('references', 4000),
  bankDetails: required('bankDetails', 1000),
});
export type VendorApplicationFields = z.infer<typeof vendorApplicationFieldsSchema>;
export type VendorApplicationInput = z.input<typeof vendorApplicationFieldsSchema>;
export const VENDOR_TEXT_FIELDS = Object.keys(vendorApplicationFieldsSchema.shape) as (keyof VendorApplicationFields)[];
export const VENDOR_REQUIRED_FIELDS = [
  'companyName',
  'companyPhone',
  'companyAddress',
  'companyEmail',
  'contactPersonName',
  'businessType',
  'taxId',
  'registrationNumber',
  'compliant',
  'bankDetails',
] as const satisfies readonly (keyof VendorApplicationFields)[];

/** The labels the form and the staff screens show. */
export const VENDOR_FIELD_LABELS: Record<keyof VendorApplicationFields, string> = {
  companyName: 'Company name',
  companyPhone: 'Company phone',
  companyAddress: 'Company address',
  companyEmail: 'Company email',
  website: 'Website',
  previousAddress: 'Previous address',
  contactPersonName: 'Contact person name',
  contactPersonAddress: 'Contact person address',
  contactPersonEmail: 'Contact person email',
  contactPersonPhone: 'Contact person phone',
  businessType: 'Business type',
  taxId: 'Tax ID',
  registrationNumber: 'Registration number',
  compliant: 'Compliant',
  certifications: 'Certifications',
  experience: 'Experience',
  references: 'References',
  bankDetails: 'Bank details',
};

/** Multipart field names of the files (the form-mail forward uses 'certifications' as the original did). */
export const VENDOR_CERTIFICATION_FILES_FIELD = 'certificationsFiles';
export const VENDOR_COMPANY_PROFILE_FIELD = 'companyProfile';

export const fileExtension = (name: string) => (name.includes('.') ? name.split('.').pop()!.toLowerCase() : '');
export const isAcceptedVendorFileName = (name: string) =>
  (VENDOR_FILE_EXTENSIONS as readonly string[]).includes(fileExtension(name));

export interface SelectedFile {
  name: string;
  size: number;
}

/**
 * The file rules the form checks before sending (the server checks them again, and the bytes):
 * returns the first problem as the specification words it, or null.
 */
export function vendorFilesProblem(certifications: SelectedFile[], companyProfile: SelectedFile | null) {
  if (certifications.length > VENDOR_CERTIFICATION_FILES_MAX) {
    return { title: 'Validation Error', message: VENDOR_MESSAGES.tooManyCertifications };
  }
  for (const f of [...certifications, ...(companyProfile ? [companyProfile] : [])]) {
    if (!isAcceptedVendorFileName(f.name)) return { title: 'Invalid File Type', message: VENDOR_MESSAGES.wrongFileType(f.name) };
  }
  for (const f of certifications) {
    if (f.size > VENDOR_FILE_MAX_BYTES) return { title: 'File Too Large', message: VENDOR_MESSAGES.fileTooLarge(f.name) };
  }
  if (companyProfile && companyProfile.size > VENDOR_FILE_MAX_BYTES) {
    return { title: 'File Too Large', message: VENDOR_MESSAGES.companyProfileTooLarge };
  }
  const total = certifications.reduce((s, f) => s + f.size, 0) + (companyProfile?.size ?? 0);
  if (total > VENDOR_TOTAL_MAX_BYTES) return { title: 'Total Size Exceeded', message: VENDOR_MESSAGES.totalTooLarge };
  return null;
}

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

export const vendorSubmitResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  reference: z.string(),
});
export type VendorSubmitResponse = z.infer<typeof vendorSubmitResponseSchema>;

export const VENDOR_LIST_PAGE_SIZE = 50;
export const vendorListQuerySchema = z.object({
  status: z.enum(VENDOR_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const vendorApplicationSummarySchema = z.object({
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

export const vendorListResponseSchema = z.object({
  success: z.literal(true),
  applications: z.array(vendorApplicationSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type VendorListResponse = z.infer<typeof vendorListResponseSchema>;

export const vendorDocumentSchema = z.object({
  _id: z.uuid(),
  kind: z.enum(['certification', 'company-profile']),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
});
export type VendorDocument = z.infer<typeof vendorDocumentSchema>;

export const vendorStatusChangeSchema = z.object({
  _id: z.uuid(),
  fromStatus: z.enum(VENDOR_STATUSES).nullable(),
  toStatus: z.enum(VENDOR_STATUSES),
  note: z.string(),
  changedBy: z.object({ _id: z.uuid().nullable(), name: z.string() }).nullable(),
  changedAt: z.iso.datetime(),
});
export type VendorStatusChange = z.infer<typeof vendorStatusChangeSchema>;

export const vendorApplicationDetailSchema = vendorApplicationSummarySchema.extend({
  fields: z.object(
    Object.fromEntries(VENDOR_TEXT_FIELDS.map((k) => [k, z.string()])) as Record<keyof VendorApplicationFields, z.ZodString>,
  ),
  documents: z.array(vendorDocumentSchema),
  history: z.array(vendorStatusChangeSchema),
  nextStatuses: z.array(z.enum(VENDOR_STATUSES)),
});
export type VendorApplicationDetail = z.infer<typeof vendorApplicationDetailSchema>;
export const vendorDetailResponseSchema = z.object({ success: z.literal(true), application: vendorApplicationDetailSchema });
export type VendorDetailResponse = z.infer<typeof vendorDetailResponseSchema>;

export const vendorStatusUpdateSchema = z.object({
  status: z.enum(VENDOR_STATUSES),
  note: z.string().trim().max(2000).default(''),
});
export type VendorStatusUpdate = z.input<typeof vendorStatusUpdateSchema>;
