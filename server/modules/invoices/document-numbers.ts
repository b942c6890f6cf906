import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { FINANCE_SETTINGS_DEFAULTS } from '../../db/schema/payments.ts';

// Gapless document numbers (decision 298): one counter row per series and year, incremented by an
// upsert inside the issuing transaction. The row stays locked until that transaction ends, so
// concurrent issues queue on it, and an issue that rolls back takes its increment with it: no gaps,
// no repeats. Take the number last, after everything that can refuse, to keep the lock short.

/** The numbered series: each counts on its own, per calendar year of the issue date. */
export const DOCUMENT_SERIES = ['invoice', 'credit_note'] as const;
type DocumentSeries = (typeof DOCUMENT_SERIES)[number];

/** A transaction (not the pool): a number taken outside one would be committed even if the issue failed. */
type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The next sequence number (1, 2, ...) of a series in a year, within the caller's transaction. */
export async function nextDocumentNumber(tx: Transaction, series: DocumentSeries, year: number): Promise<number> {
  if (!DOCUMENT_SERIES.includes(series)) throw new RangeError(`Unknown document series ${String(series)}`);
  if (!Number.isSafeInteger(year) || year < 2000 || year > 9999) throw new RangeError(`Not a document year: ${year}`);
  const result = await tx.execute<{ last: number }>(sql`
    INSERT INTO document_counters (series, year, last) VALUES (${series}, ${year}, 1)
    ON CONFLICT (series, year) DO UPDATE SET last = document_counters.last + 1
    RETURNING last`);
  return Number(result.rows[0].last);
}

/** A document's number as printed: 'INV-2026-0001' (at least four digits; 'INV-2026-12345' past 9,999). */
export function formatDocumentNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(4, '0')}`;
}

/**
 * Numbers a document being issued on `issueDate` ('YYYY-MM-DD', Lagos): the series' next sequence in
 * that year and the number with the prefix set in `finance_settings` now (stored in the document, so
 * a later change of prefix changes no issued number, and the count goes on).
 */
export async function allocateDocumentNumber(tx: Transaction, series: DocumentSeries, issueDate: string): Promise<{ number: string; year: number; sequence: number }> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(issueDate)) throw new RangeError(`Not an issue date: ${issueDate}`);
  const year = Number(issueDate.slice(0, 4));
  const settings = await tx.execute<{ invoice_prefix: string; credit_note_prefix: string }>(sql`SELECT invoice_prefix, credit_note_prefix FROM finance_settings WHERE id = 1`);
  // No row until staff first save the settings: the defaults hold.
  const row = settings.rows[0] ?? { invoice_prefix: FINANCE_SETTINGS_DEFAULTS.invoicePrefix, credit_note_prefix: FINANCE_SETTINGS_DEFAULTS.creditNotePrefix };
  const sequence = await nextDocumentNumber(tx, series, year);
  const prefix = series === 'invoice' ? row.invoice_prefix : row.credit_note_prefix;
  return { number: formatDocumentNumber(prefix, year, sequence), year, sequence };
}
