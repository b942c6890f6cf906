import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { VENDOR_STATUSES } from '../../../common/schemas/vendors.ts';
import { users } from './users.ts';
import { tsvector } from './search-vector.ts';

/** A vendor registration sent from the public form, with every text field of the specification. */
export const vendorApplications = pgTable(
  'vendor_applications',
  {
    id: uuid('id').primaryKey(),
    /** What the applicant quotes when writing to us (VR-YYYYMMDD-XXXXXX). */
    reference: text('reference').notNull(),
    companyName: text('company_name').notNull(),
    companyPhone: text('company_phone').notNull(),
    companyAddress: text('company_address').notNull(),
    companyEmail: text('company_email').notNull(),
    website: text('website').notNull().default(''),
    previousAddress: text('previous_address').notNull().default(''),
    contactPersonName: text('contact_person_name').notNull(),
    contactPersonAddress: text('contact_person_address').notNull().default(''),
    contactPersonEmail: text('contact_person_email').notNull().default(''),
    contactPersonPhone: text('contact_person_phone').notNull().default(''),
    businessType: text('business_type').notNull(),
    taxId: text('tax_id').notNull(),
    registrationNumber: text('registration_number').notNull(),
    compliant: text('compliant', { enum: ['Yes', 'No'] }).notNull(),
    certifications: text('certifications').notNull().default(''),
    experience: text('experience').notNull().default(''),
    references: text('references').notNull().default(''),
    bankDetails: text('bank_details').notNull(),
    status: text('status', { enum: VENDOR_STATUSES }).notNull().default('new'),
    /** The sender's address, for abuse investigations. */
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The names, addresses and free-text answers, for staff search (decision 250); kept by the database. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english', reference || ' ' || company_name || ' ' || company_email || ' ' || company_address || ' ' || contact_person_name || ' ' || contact_person_email || ' ' || business_type || ' ' || certifications || ' ' || experience || ' ' || "references")`,
    ),
  },
  (t) => [
    uniqueIndex('vendor_applications_reference_unique').on(t.reference),
    index('vendor_applications_search_idx').using('gin', t.searchVector),
    index('vendor_applications_status_idx').on(t.status, t.createdAt),
    index('vendor_applications_created_idx').on(t.createdAt),
  ],
);

export const VENDOR_DOCUMENT_KINDS = ['certification', 'company-profile'] as const;

/** A file sent with an application; the bytes live in the file storage under storage_key. */
export const vendorDocuments = pgTable(
  'vendor_documents',
  {
    id: uuid('id').primaryKey(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => vendorApplications.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: VENDOR_DOCUMENT_KINDS }).notNull(),
    storageKey: text('storage_key').notNull(),
    /** The name the applicant's computer gave it (shown and used for downloads, never as a path). */
    originalName: text('original_name').notNull(),
    /** The type found in the bytes, not the one the browser declared. */
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    position: bigint('position', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('vendor_documents_application_idx').on(t.applicationId), uniqueIndex('vendor_documents_key_unique').on(t.storageKey)],
);

/** Every move of an application along the pipeline: who, when, and the staff note. */
export const vendorStatusChanges = pgTable(
  'vendor_status_changes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => vendorApplications.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status', { enum: VENDOR_STATUSES }),
    toStatus: text('to_status', { enum: VENDOR_STATUSES }).notNull(),
    note: text('note').notNull().default(''),
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as text too, so the history still names the person after their account is removed. */
    changedByName: text('changed_by_name'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('vendor_status_changes_application_idx').on(t.applicationId, t.changedAt)],
);
