import type { FieldRule } from './form-check.ts';

// What the vendor registration form needs in the browser, without zod (decision 144): its words,
// labels, field order and file rules, and the rules of the check it runs before sending
// (form-check.ts). The schema in vendors.ts stays the source of truth (the server checks every
// registration with it); form-check.test.ts proves the two agree.

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
function fieldWords(field: string): string {
  return field.replace(/([A-Z])/g, ' $1').toLowerCase().trim();
}
export const missingFieldMessage = (field: string) => `Please fill in the ${fieldWords(field)} field`;
export const tooLongFieldMessage = (field: string, max: number) => `The ${fieldWords(field)} field is too long (at most ${max} characters)`;
/** How the refusal of a disguising character in a one-line field starts (decision 195). */
export const lineFieldWords = (field: string) => `The ${fieldWords(field)} field`;
export const invalidEmailMessage = (field: string) => `Please enter a valid ${fieldWords(field)} address`;

/** Every text field of the form, in the order the form shows them and both checks report them. */
export const VENDOR_TEXT_FIELDS = [
  'companyName',
  'companyPhone',
  'companyAddress',
  'companyEmail',
  'website',
  'previousAddress',
  'contactPersonName',
  'contactPersonAddress',
  'contactPersonEmail',
  'contactPersonPhone',
  'businessType',
  'taxId',
  'registrationNumber',
  'compliant',
  'certifications',
  'experience',
  'references',
  'bankDetails',
] as const;
/** A field of the form; vendors.ts checks that its schema has exactly these (this file imports no zod). */
export type VendorFieldName = (typeof VENDOR_TEXT_FIELDS)[number];
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
] as const satisfies readonly (VendorFieldName)[];

/** The labels the form and the staff screens show. */
export const VENDOR_FIELD_LABELS: Record<VendorFieldName, string> = {
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

// ---- The rules of vendorApplicationFieldsSchema (vendors.ts), in its order, for checkForm

const required = (field: string, max: number) => ({ missing: missingFieldMessage(field), max, tooLong: tooLongFieldMessage(field, max) });
const optional = (field: string, max: number) => ({ max, tooLong: tooLongFieldMessage(field, max) });
// One-line fields: names, numbers, the web address (decision 195).
const line = <R extends object>(field: string, rule: R) => ({ singleLine: lineFieldWords(field), ...rule });

export const VENDOR_FORM_RULES: Record<VendorFieldName, FieldRule> = {
  companyName: line('companyName', required('companyName', 200)),
  companyPhone: line('companyPhone', required('companyPhone', 50)),
  companyAddress: required('companyAddress', 500),
  companyEmail: { ...required('companyEmail', 254), invalidEmail: invalidEmailMessage('companyEmail') },
  website: { ...line('website', optional('website', 300)), webAddress: true },
  previousAddress: optional('previousAddress', 500),
  contactPersonName: line('contactPersonName', required('contactPersonName', 200)),
  contactPersonAddress: optional('contactPersonAddress', 500),
  contactPersonEmail: { ...optional('contactPersonEmail', 254), invalidEmail: invalidEmailMessage('contactPersonEmail') },
  contactPersonPhone: line('contactPersonPhone', optional('contactPersonPhone', 50)),
  businessType: line('businessType', required('businessType', 200)),
  taxId: line('taxId', required('taxId', 100)),
  registrationNumber: line('registrationNumber', required('registrationNumber', 100)),
  compliant: { oneOf: ['Yes', 'No'], missing: missingFieldMessage('compliant') },
  certifications: optional('certifications', 2000),
  experience: optional('experience', 4000),
  references: optional('references', 4000),
  bankDetails: required('bankDetails', 1000),
};
