import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { lineAmounts } from '../../common/invoice-math.ts';
import { invoiceLines, invoices } from '../../server/db/schema/payments.ts';
import type { TestApp } from './test-app.ts';

/**
 * An invoice of one line on a project, written straight to the database (the invoice routes are
 * another module's): a draft, or with `issue` numbered and issued as the issuing service leaves it
 * (the frozen-invoice trigger allows the one step draft → issued). Answers its id and gross kobo.
 */
export async function invoiceOn(t: TestApp, projectId: string, options: { unitPriceKobo?: bigint; issue?: boolean } = {}): Promise<{ id: string; grossKobo: bigint }> {
  const db = t.database.db;
  const line = { quantity: 1, unitPriceKobo: options.unitPriceKobo ?? 1_000_000n, vatRateBp: 750 };
  const amounts = lineAmounts(line);
  const grossKobo = amounts.netKobo + amounts.vatKobo;
  const now = t.clock.now();
  const [row] = await db
    .insert(invoices)
    .values({ projectId, dueDate: '2026-12-15', netKobo: amounts.netKobo, vatKobo: amounts.vatKobo, grossKobo, createdAt: now, updatedAt: now })
    .returning({ id: invoices.id });
  await db.insert(invoiceLines).values({ invoiceId: row.id, position: 0, description: 'Piling, first phase', ...line, ...amounts });
  if (options.issue !== false) {
    const seq = randomInt(1, 2_000_000_000);
    await db
      .update(invoices)
      .set({
        status: 'issued',
        number: `INV-2026-${String(seq).padStart(4, '0')}`,
        numberYear: 2026,
        numberSeq: seq,
        issueDate: '2026-11-15',
        dueDate: '2026-12-15',
        issuedAt: now,
        seller: { name: 'The company' },
        buyer: { name: 'The client' },
        bank: { bankName: 'A bank', accountName: 'The company', accountNumber: '0123456789' },
      })
      .where(eq(invoices.id, row.id));
  }
  return { id: row.id, grossKobo };
}
