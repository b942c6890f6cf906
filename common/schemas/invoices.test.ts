import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInvoiceBodySchema, financeSettingsBodySchema, formatBp, parsePercentToBp, putPlanBodySchema, recordPaymentBodySchema } from './invoices.ts';

// The payment plan's request rules (issue 26): per cent shares and naira amounts read exactly, by
// string arithmetic, and every bad field refused with its own message.

describe('shares in per cent', () => {
  it('reads per cent to basis points exactly', () => {
    expect(parsePercentToBp('25')).toEqual({ ok: true, bp: 2500 });
    expect(parsePercentToBp('12.5')).toEqual({ ok: true, bp: 1250 });
    expect(parsePercentToBp(' 33.33 % ')).toEqual({ ok: true, bp: 3333 });
    expect(parsePercentToBp('100')).toEqual({ ok: true, bp: 10000 });
    for (const bad of ['0', '100.01', '12.345', '-5', '1e2', '', 'ten']) expect(parsePercentToBp(bad).ok, bad).toBe(false);
  });

  it('formats basis points and reads them back unchanged', () => {
    expect(formatBp(750)).toBe('7.5 %');
    expect(formatBp(2500)).toBe('25 %');
    expect(formatBp(1234)).toBe('12.34 %');
    expect(formatBp(5)).toBe('0.05 %');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10000 }), (bp) => {
        const back = parsePercentToBp(formatBp(bp));
        return back.ok && back.bp === bp;
      }),
    );
  });
});

describe('request bodies', () => {
  it('takes a milestone with either an amount or a share, never both or neither', () => {
    expect(putPlanBodySchema.safeParse({ milestones: [{ name: 'A', amount: '1,000.50' }] }).data?.milestones[0].amount).toBe('100050');
    expect(putPlanBodySchema.safeParse({ milestones: [{ name: 'A', share: '30' }] }).data?.milestones[0].share).toBe(3000);
    expect(putPlanBodySchema.safeParse({ milestones: [{ name: 'A' }] }).success).toBe(false);
    expect(putPlanBodySchema.safeParse({ milestones: [{ name: 'A', amount: '1', share: '1' }] }).success).toBe(false);
    expect(putPlanBodySchema.safeParse({ milestones: [{ name: 'A', amount: '0' }] }).success).toBe(false);
  });

  it('needs a milestone or a line for an invoice, whole quantities, and at most two decimals', () => {
    expect(createInvoiceBodySchema.safeParse({}).success).toBe(false);
    expect(createInvoiceBodySchema.safeParse({ lines: [{ description: 'x', quantity: 2, unitPrice: '0.05' }] }).data?.lines?.[0]).toMatchObject({ unitPrice: '5', vatable: true });
    expect(createInvoiceBodySchema.safeParse({ lines: [{ description: 'x', quantity: 0.5, unitPrice: '1' }] }).success).toBe(false);
    expect(createInvoiceBodySchema.safeParse({ lines: [{ description: 'x', quantity: 1, unitPrice: '1.001' }] }).success).toBe(false);
  });

  it('records only staff methods, with an amount above nothing', () => {
    const base = { amount: '10', receivedOn: '2026-11-20', method: 'bank_transfer' };
    expect(recordPaymentBodySchema.safeParse(base).data?.amount).toBe('1000');
    expect(recordPaymentBodySchema.safeParse({ ...base, method: 'paystack' }).success).toBe(false);
    expect(recordPaymentBodySchema.safeParse({ ...base, amount: '0.00' }).success).toBe(false);
    expect(recordPaymentBodySchema.safeParse({ ...base, receivedOn: '20/11/2026' }).success).toBe(false);
  });

  it('reads the VAT rate setting in per cent, 0 included', () => {
    const base = { invoicePrefix: 'INV', creditNotePrefix: 'CN', paymentTermsDays: 30, taxId: '', bankName: '', bankAccountName: '', bankAccountNumber: '' };
    expect(financeSettingsBodySchema.safeParse({ ...base, vatRate: '7.5' }).data?.vatRate).toBe(750);
    expect(financeSettingsBodySchema.safeParse({ ...base, vatRate: '0' }).data?.vatRate).toBe(0);
    expect(financeSettingsBodySchema.safeParse({ ...base, vatRate: '7.55 %' }).data?.vatRate).toBe(755);
    expect(financeSettingsBodySchema.safeParse({ ...base, vatRate: 'seven' }).success).toBe(false);
  });
});
