import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lineAmounts } from '../../common/invoice-math.ts';
import { createTestDatabase } from '../../tests/helpers/test-app.ts';

// Migration 0033 (decision 298): the database itself holds the payment plan's rules: kobo amounts
// never negative, a line's net and VAT by the rounding rule, and issued invoices and credit notes
// frozen with their lines.

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let c: pg.Client;
let projectId: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  c = new pg.Client({ connectionString: testDb.url });
  await c.connect();
  // A client founds its own organisation (migration 0025's trigger).
  const client = await c.query<{ id: string }>(
    `INSERT INTO users (role, name, email, username, password_hash) VALUES ('client', 'Lagoon Works', 'lw@example.test', 'lagoon', 'x') RETURNING id`,
  );
  projectId = (
    await c.query<{ id: string }>(
      `INSERT INTO projects (client_id, name, code) VALUES ($1, 'Quay wall', 'QW-1') RETURNING id`,
      [client.rows[0].id],
    )
  ).rows[0].id;
});
afterAll(async () => {
  await c?.end();
  await testDb?.drop();
});

let invoiceId: string;
beforeEach(async () => {
  invoiceId = (
    await c.query<{ id: string }>(
      `INSERT INTO invoices (project_id, due_date) VALUES ($1, '2026-12-31') RETURNING id`,
      [projectId],
    )
  ).rows[0].id;
});

const addLine = (
  invoice: string,
  position: number,
  quantity: number,
  unitPriceKobo: bigint,
  net: bigint,
  vat: bigint,
) =>
  c.query<{ id: string }>(
    `INSERT INTO invoice_lines (invoice_id, position, description, quantity, unit_price_kobo, vat_rate_bp, net_kobo, vat_kobo) VALUES ($1, $2, 'Line', $3, $4, 750, $5, $6) RETURNING id`,
    [invoice, position, quantity, unitPriceKobo.toString(), net.toString(), vat.toString()],
  );

const issueInvoice = (id: string, seq: number) =>
  c.query(
    `UPDATE invoices SET status = 'issued', number = $2, number_year = 2026, number_seq = $3, issue_date = '2026-11-20', issued_at = now(), seller = '{}', buyer = '{}', bank = '{}' WHERE id = $1`,
    [id, `INV-2026-${String(seq).padStart(4, '0')}`, seq],
  );

let seq = 0;

describe('migration 0033: the payment plan tables', () => {
  it("checks a line's net and VAT by the rule that common/invoice-math computes", async () => {
    const good = lineAmounts({ quantity: 3, unitPriceKobo: 10n, vatRateBp: 750 });
    await addLine(invoiceId, 1, 3, 10n, good.netKobo, good.vatKobo);
    // ₦0.10 × 3 carries 2.25 → 2 kobo of VAT: 3 (rounded up) or a float's 2.2499… are refused.
    await expect(addLine(invoiceId, 2, 3, 10n, 30n, 3n)).rejects.toMatchObject({
      constraint: 'invoice_lines_vat_rule',
    });
    await expect(addLine(invoiceId, 3, 3, 10n, 31n, 2n)).rejects.toMatchObject({
      constraint: 'invoice_lines_net_rule',
    });
    // The largest line: VAT past bigint's reach when multiplied is still checked exactly (numeric).
    const big = lineAmounts({ quantity: 1, unitPriceKobo: 999_999_999_999_999n, vatRateBp: 750 });
    await addLine(invoiceId, 4, 1, 999_999_999_999_999n, big.netKobo, big.vatKobo);
    await expect(addLine(invoiceId, 5, 1, -1n, -1n, 0n)).rejects.toMatchObject({ code: '23514' });
  });

  it('refuses negative amounts, an unbalanced gross and a milestone with both or neither of amount and share', async () => {
    await expect(
      c.query(`UPDATE invoices SET net_kobo = 10, vat_kobo = 1, gross_kobo = 12 WHERE id = $1`, [invoiceId]),
    ).rejects.toMatchObject({ constraint: 'invoices_amounts' });
    await expect(
      c.query(
        `INSERT INTO payment_milestones (project_id, position, name, amount_kobo, share_bp) VALUES ($1, 1, 'x', 1, 1)`,
        [projectId],
      ),
    ).rejects.toMatchObject({
      constraint: 'payment_milestones_amount_or_share',
    });
    await expect(
      c.query(`INSERT INTO payment_milestones (project_id, position, name) VALUES ($1, 1, 'x')`, [projectId]),
    ).rejects.toMatchObject({ constraint: 'payment_milestones_amount_or_share' });
    await expect(
      c.query(`INSERT INTO payment_milestones (project_id, position, name, amount_kobo) VALUES ($1, 1, 'x', -1)`, [
        projectId,
      ]),
    ).rejects.toMatchObject({
      constraint: 'payment_milestones_amount_range',
    });
    await expect(
      c.query(
        `INSERT INTO payments (invoice_id, amount_kobo, received_on, method) VALUES ($1, 0, '2026-11-20', 'bank_transfer')`,
        [invoiceId],
      ),
    ).rejects.toMatchObject({
      constraint: 'payments_amount_positive',
    });
    // A draft cannot carry a number; an issued invoice needs all its issue facts.
    await expect(
      c.query(`UPDATE invoices SET number = 'INV-2026-9999' WHERE id = $1`, [invoiceId]),
    ).rejects.toMatchObject({ constraint: 'invoices_numbered_when_issued' });
    await expect(
      c.query(`UPDATE invoices SET status = 'issued', number = 'INV-2026-9998' WHERE id = $1`, [invoiceId]),
    ).rejects.toMatchObject({ constraint: 'invoices_issued_complete' });
  });

  it('freezes an issued invoice and its lines, while a draft stays editable', async () => {
    const line = await addLine(invoiceId, 1, 1, 200n, 200n, 15n);
    await c.query(
      `UPDATE invoices SET notes = 'draft edit', net_kobo = 200, vat_kobo = 15, gross_kobo = 215 WHERE id = $1`,
      [invoiceId],
    );
    await c.query(`UPDATE invoice_lines SET description = 'Edited' WHERE id = $1`, [line.rows[0].id]);
    await issueInvoice(invoiceId, ++seq);
    await expect(c.query(`UPDATE invoices SET notes = 'changed' WHERE id = $1`, [invoiceId])).rejects.toThrow(
      /^invoice INV-2026-\d{4} is issued and cannot change/,
    );
    await expect(c.query(`DELETE FROM invoices WHERE id = $1`, [invoiceId])).rejects.toThrow(
      /is issued and cannot change/,
    );
    await expect(
      c.query(`UPDATE invoice_lines SET description = 'Changed' WHERE id = $1`, [line.rows[0].id]),
    ).rejects.toThrow(/a line of an issued invoice cannot change/);
    await expect(c.query(`DELETE FROM invoice_lines WHERE id = $1`, [line.rows[0].id])).rejects.toThrow(
      /a line of an issued invoice cannot change/,
    );
    await expect(addLine(invoiceId, 2, 1, 100n, 100n, 8n)).rejects.toThrow(/an issued invoice cannot take new lines/);
    // A draft invoice is deleted with its lines.
    const draft = (
      await c.query<{ id: string }>(`INSERT INTO invoices (project_id) VALUES ($1) RETURNING id`, [projectId])
    ).rows[0].id;
    await addLine(draft, 1, 1, 100n, 100n, 8n);
    await c.query(`DELETE FROM invoices WHERE id = $1`, [draft]);
  });

  it("lets lines into an issued invoice only inside a restore's transaction", async () => {
    await issueInvoice(invoiceId, ++seq);
    await c.query('BEGIN');
    try {
      await c.query(`SET LOCAL portal.restoring = 'on'`);
      await addLine(invoiceId, 1, 1, 100n, 100n, 8n);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    }
    await expect(addLine(invoiceId, 2, 1, 100n, 100n, 8n)).rejects.toThrow(/cannot take new lines/);
  });

  it('freezes an issued credit note and its lines', async () => {
    const line = await addLine(invoiceId, 1, 1, 200n, 200n, 15n);
    await c.query(`UPDATE invoices SET net_kobo = 200, vat_kobo = 15, gross_kobo = 215 WHERE id = $1`, [invoiceId]);
    await issueInvoice(invoiceId, ++seq);
    const note = (
      await c.query<{ id: string }>(
        `INSERT INTO credit_notes (invoice_id, reason) VALUES ($1, 'Wrong price') RETURNING id`,
        [invoiceId],
      )
    ).rows[0].id;
    const credit = await c.query<{ id: string }>(
      `INSERT INTO credit_note_lines (credit_note_id, invoice_line_id, position, description, net_kobo, vat_kobo) VALUES ($1, $2, 1, 'Part', 100, 8) RETURNING id`,
      [note, line.rows[0].id],
    );
    await c.query(
      `UPDATE credit_notes SET status = 'issued', number = $2, number_year = 2026, number_seq = $3, issue_date = '2026-11-21', issued_at = now(), net_kobo = 100, vat_kobo = 8, gross_kobo = 108 WHERE id = $1`,
      [note, `CN-2026-${String(seq).padStart(4, '0')}`, seq],
    );
    await expect(c.query(`UPDATE credit_notes SET reason = 'Other' WHERE id = $1`, [note])).rejects.toThrow(
      /is issued and cannot change/,
    );
    await expect(
      c.query(`UPDATE credit_note_lines SET net_kobo = 1 WHERE id = $1`, [credit.rows[0].id]),
    ).rejects.toThrow(/a line of an issued credit note cannot change/);
    // The invoice line a credit names cannot go, nor a project with invoices.
    // ON DELETE RESTRICT: PostgreSQL 16 and later answer restrict_violation (23001), 15 foreign_key_violation (23503).
    const refused = await c.query(`DELETE FROM projects WHERE id = $1`, [projectId]).then(
      () => null,
      (err: { code?: string }) => err.code,
    );
    expect(['23001', '23503']).toContain(refused);
  });

  it('keeps Paystack references and payments one to one', async () => {
    await issueInvoice(invoiceId, ++seq);
    const pay = (ref: string) =>
      c.query<{ id: string }>(
        `INSERT INTO payments (invoice_id, amount_kobo, received_on, method, paystack_reference) VALUES ($1, 100, '2026-11-20', 'paystack', $2) RETURNING id`,
        [invoiceId, ref],
      );
    await pay('ref-a');
    await expect(pay('ref-a')).rejects.toMatchObject({ constraint: 'payments_paystack_reference_unique' });
    const checkout = (ref: string) =>
      c.query(`INSERT INTO paystack_transactions (reference, invoice_id, amount_kobo) VALUES ($1, $2, 100)`, [
        ref,
        invoiceId,
      ]);
    await checkout('ref-b');
    await expect(checkout('ref-b')).rejects.toMatchObject({ constraint: 'paystack_transactions_reference_unique' });
    await expect(
      c.query(`UPDATE paystack_transactions SET status = 'paid' WHERE reference = 'ref-b'`),
    ).rejects.toMatchObject({ constraint: 'paystack_transactions_paid_has_payment' });
  });
});
