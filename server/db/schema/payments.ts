import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

// The payment plan (issue 26, decision 298): milestones, invoices with their lines, credit notes,
// payments, gapless document numbers and Paystack checkouts. Money is integer kobo (bigint), rates
// basis points. Issued invoices and credit notes are frozen by triggers in migration 0033.

const kobo = (name: string) => bigint(name, { mode: 'bigint' });
const audit = {
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * What the finance settings are until staff first save them (no row yet: a migration that wrote one
 * would make every fresh database "not empty" to a restore).
 */
export const FINANCE_SETTINGS_DEFAULTS = { invoicePrefix: 'INV', creditNotePrefix: 'CN', vatRateBp: 750, paymentTermsDays: 30 } as const;

/** The finance settings (at most one row, id 1, written when staff first save them): number prefixes, the VAT rate, terms and bank details. */
export const financeSettings = pgTable(
  'finance_settings',
  {
    id: integer('id').primaryKey().default(1),
    invoicePrefix: text('invoice_prefix').notNull().default(FINANCE_SETTINGS_DEFAULTS.invoicePrefix),
    creditNotePrefix: text('credit_note_prefix').notNull().default(FINANCE_SETTINGS_DEFAULTS.creditNotePrefix),
    /** 750 = 7.5 % (Nigerian VAT); copied onto each line when the line is written. */
    vatRateBp: integer('vat_rate_bp').notNull().default(FINANCE_SETTINGS_DEFAULTS.vatRateBp),
    paymentTermsDays: integer('payment_terms_days').notNull().default(FINANCE_SETTINGS_DEFAULTS.paymentTermsDays),
    /** The company's tax identification number (TIN), printed on invoices. */
    taxId: text('tax_id').notNull().default(''),
    bankName: text('bank_name').notNull().default(''),
    bankAccountName: text('bank_account_name').notNull().default(''),
    bankAccountNumber: text('bank_account_number').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('finance_settings_one_row', sql`${t.id} = 1`),
    check('finance_settings_prefixes', sql`${t.invoicePrefix} ~ '^[A-Z][A-Z0-9]{0,7}$' and ${t.creditNotePrefix} ~ '^[A-Z][A-Z0-9]{0,7}$' and ${t.invoicePrefix} <> ${t.creditNotePrefix}`),
    check('finance_settings_vat_rate', sql`${t.vatRateBp} between 0 and 10000`),
    check('finance_settings_terms', sql`${t.paymentTermsDays} between 0 and 365`),
  ],
);

/** A milestone of a project's payment plan: a fixed amount or a share of the contract sum (basis points). */
export const paymentMilestones = pgTable(
  'payment_milestones',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    amountKobo: kobo('amount_kobo'),
    shareBp: integer('share_bp'),
    dueDate: date('due_date', { mode: 'string' }),
    /** Timeline tasks it waits on, by timeline and task text (tasks have no ids: decision 052). */
    dependsOn: jsonb('depends_on').$type<Array<{ timelineId: string; task: string }>>().notNull().default([]),
    ...audit,
  },
  (t) => [
    index('payment_milestones_project_idx').on(t.projectId, t.position),
    check('payment_milestones_amount_or_share', sql`(${t.amountKobo} is null) <> (${t.shareBp} is null)`),
    check('payment_milestones_amount_range', sql`${t.amountKobo} is null or ${t.amountKobo} >= 0`),
    check('payment_milestones_share_range', sql`${t.shareBp} is null or ${t.shareBp} between 1 and 10000`),
  ],
);

const documentNumber = {
  /** '<prefix>-<year>-<sequence>', given at issue (nextDocumentNumber); null while a draft. */
  number: text('number'),
  numberYear: integer('number_year'),
  numberSeq: integer('number_seq'),
  issueDate: date('issue_date', { mode: 'string' }),
  issuedAt: timestamp('issued_at', { withTimezone: true }),
  issuedBy: uuid('issued_by').references(() => users.id, { onDelete: 'set null' }),
};
const documentTotals = {
  netKobo: kobo('net_kobo').notNull().default(sql`0`),
  vatKobo: kobo('vat_kobo').notNull().default(sql`0`),
  grossKobo: kobo('gross_kobo').notNull().default(sql`0`),
};

/** An invoice: a draft (edited freely, no number) or issued (numbered, frozen by a trigger). */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    milestoneId: uuid('milestone_id').references(() => paymentMilestones.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['draft', 'issued'] }).notNull().default('draft'),
    ...documentNumber,
    dueDate: date('due_date', { mode: 'string' }),
    ...documentTotals,
    /** Snapshots taken at issue: the company (name, address, RC, TIN), the client, the bank details. */
    seller: jsonb('seller').$type<Record<string, string>>(),
    buyer: jsonb('buyer').$type<Record<string, string>>(),
    bank: jsonb('bank').$type<Record<string, string>>(),
    notes: text('notes').notNull().default(''),
    ...audit,
  },
  (t) => [
    uniqueIndex('invoices_number_unique').on(t.number),
    uniqueIndex('invoices_year_seq_unique').on(t.numberYear, t.numberSeq),
    index('invoices_project_idx').on(t.projectId, t.createdAt),
    index('invoices_milestone_idx').on(t.milestoneId),
    check('invoices_amounts', sql`${t.netKobo} >= 0 and ${t.vatKobo} >= 0 and ${t.grossKobo} = ${t.netKobo} + ${t.vatKobo}`),
    check('invoices_numbered_when_issued', sql`(${t.status} = 'issued') = (${t.number} is not null)`),
    check(
      'invoices_issued_complete',
      sql`${t.status} <> 'issued' or (${t.numberYear} is not null and ${t.numberSeq} is not null and ${t.issueDate} is not null and ${t.dueDate} is not null and ${t.issuedAt} is not null and ${t.seller} is not null and ${t.buyer} is not null and ${t.bank} is not null)`,
    ),
    check('invoices_due_after_issue', sql`${t.dueDate} is null or ${t.issueDate} is null or ${t.dueDate} >= ${t.issueDate}`),
  ],
);

/** A line of an invoice: whole quantity × unit price, VAT by decision 298's rule (checked here too). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceKobo: kobo('unit_price_kobo').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    netKobo: kobo('net_kobo').notNull(),
    vatKobo: kobo('vat_kobo').notNull(),
  },
  (t) => [
    uniqueIndex('invoice_lines_invoice_position_unique').on(t.invoiceId, t.position),
    check('invoice_lines_quantity_range', sql`${t.quantity} between 1 and 1000000`),
    check('invoice_lines_amounts', sql`${t.unitPriceKobo} >= 0 and ${t.vatRateBp} between 0 and 10000`),
    check('invoice_lines_net_rule', sql`${t.netKobo} = ${t.quantity} * ${t.unitPriceKobo}`),
    check('invoice_lines_vat_rule', sql`${t.vatKobo} = floor((${t.netKobo}::numeric * ${t.vatRateBp} + 5000) / 10000)`),
  ],
);

/** A credit note against one invoice: a draft or issued (numbered in its own series, frozen). */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['draft', 'issued'] }).notNull().default('draft'),
    ...documentNumber,
    reason: text('reason').notNull(),
    ...documentTotals,
    ...audit,
  },
  (t) => [
    uniqueIndex('credit_notes_number_unique').on(t.number),
    uniqueIndex('credit_notes_year_seq_unique').on(t.numberYear, t.numberSeq),
    index('credit_notes_invoice_idx').on(t.invoiceId),
    check('credit_notes_amounts', sql`${t.netKobo} >= 0 and ${t.vatKobo} >= 0 and ${t.grossKobo} = ${t.netKobo} + ${t.vatKobo}`),
    check('credit_notes_numbered_when_issued', sql`(${t.status} = 'issued') = (${t.number} is not null)`),
    check('credit_notes_issued_complete', sql`${t.status} <> 'issued' or (${t.numberYear} is not null and ${t.numberSeq} is not null and ${t.issueDate} is not null and ${t.issuedAt} is not null)`),
    check('credit_notes_reason', sql`length(${t.reason}) > 0`),
  ],
);

/** A line of a credit note: the net credited against one invoice line, with its VAT (creditLine). */
export const creditNoteLines = pgTable(
  'credit_note_lines',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    creditNoteId: uuid('credit_note_id')
      .notNull()
      .references(() => creditNotes.id, { onDelete: 'cascade' }),
    invoiceLineId: uuid('invoice_line_id')
      .notNull()
      .references(() => invoiceLines.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    netKobo: kobo('net_kobo').notNull(),
    vatKobo: kobo('vat_kobo').notNull(),
  },
  (t) => [
    uniqueIndex('credit_note_lines_note_position_unique').on(t.creditNoteId, t.position),
    index('credit_note_lines_invoice_line_idx').on(t.invoiceLineId),
    check('credit_note_lines_amounts', sql`${t.netKobo} > 0 and ${t.vatKobo} >= 0`),
  ],
);

/** A payment received against an issued invoice; a mistaken one is voided, never edited or deleted. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    amountKobo: kobo('amount_kobo').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    method: text('method', { enum: ['bank_transfer', 'paystack', 'cheque', 'cash'] }).notNull(),
    /** The bank's (or cheque's) reference as staff typed it. */
    reference: text('reference').notNull().default(''),
    paystackReference: text('paystack_reference'),
    note: text('note').notNull().default(''),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: uuid('voided_by').references(() => users.id, { onDelete: 'set null' }),
    voidReason: text('void_reason'),
  },
  (t) => [
    uniqueIndex('payments_paystack_reference_unique').on(t.paystackReference),
    index('payments_invoice_idx').on(t.invoiceId, t.receivedOn),
    check('payments_amount_positive', sql`${t.amountKobo} > 0`),
    check('payments_paystack_has_reference', sql`(${t.method} = 'paystack') = (${t.paystackReference} is not null)`),
    check('payments_void_complete', sql`(${t.voidedAt} is null) = (${t.voidReason} is null)`),
  ],
);

/** The last number given per series ('invoice', 'credit_note') and year: the gapless counter (nextDocumentNumber). */
export const documentCounters = pgTable(
  'document_counters',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [
    primaryKey({ name: 'document_counters_pk', columns: [t.series, t.year] }),
    check('document_counters_series', sql`${t.series} ~ '^[a-z][a-z_]{0,31}$'`),
    check('document_counters_year', sql`${t.year} between 2000 and 9999`),
    check('document_counters_last', sql`${t.last} >= 0`),
  ],
);

/**
 * One Paystack checkout, keyed by our reference (sent at initialisation): the webhook and the verify
 * call find it by reference, so a replayed event finds it already paid and counts once.
 */
export const paystackTransactions = pgTable(
  'paystack_transactions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    reference: text('reference').notNull(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    amountKobo: kobo('amount_kobo').notNull(),
    status: text('status', { enum: ['initialized', 'paid', 'failed', 'amount_mismatch'] })
      .notNull()
      .default('initialized'),
    paidAmountKobo: kobo('paid_amount_kobo'),
    paystackId: text('paystack_id'),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    lastEvent: text('last_event'),
    lastPayload: jsonb('last_payload'),
    initializedBy: uuid('initialized_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('paystack_transactions_reference_unique').on(t.reference),
    uniqueIndex('paystack_transactions_payment_unique').on(t.paymentId),
    index('paystack_transactions_invoice_idx').on(t.invoiceId),
    check('paystack_transactions_amounts', sql`${t.amountKobo} > 0 and (${t.paidAmountKobo} is null or ${t.paidAmountKobo} >= 0)`),
    check('paystack_transactions_paid_has_payment', sql`(${t.status} = 'paid') = (${t.paymentId} is not null)`),
  ],
);

/**
 * The reminders sent about an invoice (issue 26): one 'due_soon' before the due date and one
 * 'overdue' after it, each at most once; the row is the claim, so processes running the reminder
 * ticker at once never send one twice.
 */
export const invoiceReminders = pgTable(
  'invoice_reminders',
  {
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['due_soon', 'overdue'] }).notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'invoice_reminders_pk', columns: [t.invoiceId, t.kind] }), check('invoice_reminders_kind', sql`${t.kind} in ('due_soon', 'overdue')`)],
);
