import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASIS_POINTS,
  INVOICE_STATUSES,
  LINE_QUANTITY_MAX,
  VAT_RATE_BP_DEFAULT,
  apportion,
  creditLine,
  documentTotals,
  invoiceStatus,
  lineAmounts,
  milestoneAmounts,
  planBalance,
  remainingOfLine,
  vatOf,
} from './invoice-math.ts';
import { KOBO_MAX, formatKobo, parseNairaToKobo } from './money.ts';

const kobo = (text: string) => {
  const r = parseNairaToKobo(text);
  if (!r.ok) throw new Error(r.message);
  return r.kobo;
};

// Arbitraries: any amount up to KOBO_MAX, and lines of whole quantities at realistic unit prices
// (so that the sums of several stay below KOBO_MAX).
const anyKobo = fc.bigInt({ min: 0n, max: KOBO_MAX });
const rate = fc.integer({ min: 0, max: BASIS_POINTS });
const quantity = fc.integer({ min: 1, max: LINE_QUANTITY_MAX });
const line = fc
  .record({ quantity, unitPriceKobo: fc.bigInt({ min: 0n, max: 1_000_000_000n }), vatRateBp: fc.oneof(fc.constant(VAT_RATE_BP_DEFAULT), rate) })
  .map((l) => ({ ...l, ...lineAmounts(l) }));
const day = fc.integer({ min: 0, max: 3000 }).map((n) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10));

describe('vatOf: 7.5 % rounded half up per line, in kobo', () => {
  it('gives the exact figures of the rule', () => {
    // ₦0.10 = 10 kobo: 0.75 kobo of VAT → 1 kobo.
    expect(vatOf(10n, 750)).toBe(1n);
    // ₦0.02: 0.15 kobo → 0; ₦0.06: 0.45 → 0; ₦0.07: 0.525 → 1.
    expect(vatOf(2n, 750)).toBe(0n);
    expect(vatOf(6n, 750)).toBe(0n);
    expect(vatOf(7n, 750)).toBe(1n);
    // Exactly half a kobo rounds up: 20 kobo × 7.5 % = 1.5 → 2; 60 kobo = 4.5 → 5.
    expect(vatOf(20n, 750)).toBe(2n);
    expect(vatOf(60n, 750)).toBe(5n);
    // ₦2.00 is exactly 15 kobo; ₦1,000,000.00 is ₦75,000.00.
    expect(vatOf(200n, 750)).toBe(15n);
    expect(formatKobo(vatOf(kobo('1,000,000'), 750))).toBe('₦75,000.00');
    // ₦4,500,000.50: 33,750,003.75 kobo → 33,750,004 (₦337,500.04).
    expect(formatKobo(vatOf(kobo('4,500,000.50'), 750))).toBe('₦337,500.04');
    expect(vatOf(0n, 750)).toBe(0n);
    expect(vatOf(12345n, 0)).toBe(0n);
    expect(vatOf(12345n, BASIS_POINTS)).toBe(12345n);
    // The largest amount stays exact (a float would not).
    // 74,999,999,999,999.925 kobo → 75,000,000,000,000.
    expect(vatOf(KOBO_MAX, 750)).toBe(75_000_000_000_000n);
  });

  it('refuses negative amounts and rates outside 0..10,000 basis points', () => {
    expect(() => vatOf(-1n, 750)).toThrow(RangeError);
    expect(() => vatOf(1n, -1)).toThrow(RangeError);
    expect(() => vatOf(1n, 10_001)).toThrow(RangeError);
    expect(() => vatOf(1n, 7.5)).toThrow(RangeError);
    expect(() => vatOf(KOBO_MAX + 1n, 750)).toThrow(RangeError);
  });

  it('is always within half a kobo of the exact rational VAT, and half-way cases go up', () => {
    fc.assert(
      fc.property(anyKobo, rate, (net, bp) => {
        const vat = vatOf(net, bp);
        expect(typeof vat).toBe('bigint');
        // |vat − net × bp / 10000| ≤ 1/2  ⇔  |vat × 20000 − net × bp × 2| ≤ 10000.
        const diff = vat * 20_000n - net * BigInt(bp) * 2n;
        expect(diff <= 10_000n && diff >= -10_000n).toBe(true);
        // Exactly half: rounded up, never down.
        if (diff === -10_000n) throw new Error('a half-way VAT was rounded down');
      }),
    );
  });

  it('never falls as the net rises', () => {
    fc.assert(fc.property(anyKobo, anyKobo, rate, (a, b, bp) => (a <= b ? vatOf(a, bp) <= vatOf(b, bp) : vatOf(a, bp) >= vatOf(b, bp))));
  });
});

describe('lineAmounts and documentTotals', () => {
  it('multiplies whole quantities by the unit price exactly and adds the VAT', () => {
    expect(lineAmounts({ quantity: 3, unitPriceKobo: kobo('0.10'), vatRateBp: 750 })).toEqual({ netKobo: 30n, vatKobo: 2n, grossKobo: 32n });
    expect(lineAmounts({ quantity: 1, unitPriceKobo: kobo('12,450,000.75'), vatRateBp: 750 })).toEqual({
      netKobo: 1_245_000_075n,
      vatKobo: 93_375_006n, // 93,375,005.625 → 93,375,006
      grossKobo: 1_338_375_081n,
    });
  });

  it('adds lines, not their totals: three lines of ₦0.10 carry 3 kobo of VAT, not 2', () => {
    const lines = [1, 2, 3].map(() => lineAmounts({ quantity: 1, unitPriceKobo: 10n, vatRateBp: 750 }));
    const totals = documentTotals(lines);
    expect(totals).toEqual({ netKobo: 30n, vatKobo: 3n, grossKobo: 33n });
    expect(formatKobo(totals.grossKobo)).toBe('₦0.33');
    expect(documentTotals([])).toEqual({ netKobo: 0n, vatKobo: 0n, grossKobo: 0n });
  });

  it('refuses fractional, zero or huge quantities and lines past the largest amount', () => {
    for (const q of [0, -1, 1.5, LINE_QUANTITY_MAX + 1, Number.NaN]) expect(() => lineAmounts({ quantity: q, unitPriceKobo: 1n, vatRateBp: 750 }), String(q)).toThrow(RangeError);
    expect(() => lineAmounts({ quantity: 2, unitPriceKobo: KOBO_MAX, vatRateBp: 750 })).toThrow(RangeError);
    expect(() => lineAmounts({ quantity: 1, unitPriceKobo: -1n, vatRateBp: 750 })).toThrow(RangeError);
  });

  it('totals equal the sums of the lines, gross = net + VAT, all whole kobo', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const t = documentTotals(lines);
        expect(t.netKobo).toBe(lines.reduce((s, l) => s + l.netKobo, 0n));
        expect(t.vatKobo).toBe(lines.reduce((s, l) => s + l.vatKobo, 0n));
        expect(t.grossKobo).toBe(lines.reduce((s, l) => s + l.grossKobo, 0n));
        expect(t.grossKobo).toBe(t.netKobo + t.vatKobo);
        for (const l of lines) {
          expect(l.netKobo).toBe(BigInt(l.quantity) * l.unitPriceKobo);
          expect(l.vatKobo).toBe(vatOf(l.netKobo, l.vatRateBp));
        }
      }),
    );
  });
});

describe('apportion and milestoneAmounts: shares of the contract sum', () => {
  it('splits by the largest remainder, ties to the earlier part', () => {
    // ₦1.00 in three equal shares: 33.33… each; the spare kobo goes to the first.
    expect(apportion(100n, [1, 1, 1])).toEqual([34n, 33n, 33n]);
    // 10 kobo at 33.33 % / 33.33 % / 33.34 %: exact 3.333, 3.333, 3.334 → the largest remainder is the last.
    expect(apportion(10n, [3333, 3333, 3334])).toEqual([3n, 3n, 4n]);
    expect(apportion(0n, [1, 2])).toEqual([0n, 0n]);
    expect(apportion(7n, [0, 5])).toEqual([0n, 7n]);
    expect(() => apportion(7n, [0, 0])).toThrow(RangeError);
    expect(() => apportion(-1n, [1])).toThrow(RangeError);
  });

  it('gives share milestones their part of the sum and fixed ones their amount', () => {
    // ₦10,000,000.01 at 30 % / 30 % / 40 %: 300,000,000.3 / 300,000,000.3 / 400,000,000.4 kobo → the spare kobo to the 40 %.
    expect(milestoneAmounts(1_000_000_001n, [{ shareBp: 3000 }, { shareBp: 3000 }, { shareBp: 4000 }])).toEqual([300_000_000n, 300_000_000n, 400_000_001n]);
    // ₦10,000,000.02 at 30 % / 30 % / 40 %: .6 / .6 / .8 → the two spare kobo to the 40 % and the first 30 % (tie to the earlier).
    expect(milestoneAmounts(1_000_000_002n, [{ shareBp: 3000 }, { shareBp: 3000 }, { shareBp: 4000 }])).toEqual([300_000_001n, 300_000_000n, 400_000_001n]);
    // Mixed: ₦1,000 fixed and 50 % of ₦10,000.01; the rest is the unshared weight.
    const mixed = milestoneAmounts(1_000_001n, [{ amountKobo: 100_000n }, { shareBp: 5000 }]);
    expect(mixed).toEqual([100_000n, 500_001n]);
    expect(planBalance(1_000_001n, mixed)).toBe(400_000n);
    expect(planBalance(100n, [60n, 50n])).toBe(-10n);
    expect(() => milestoneAmounts(100n, [{ shareBp: 6000 }, { shareBp: 5000 }])).toThrow(RangeError);
    expect(milestoneAmounts(0n, [{ shareBp: 10_000 }])).toEqual([0n]);
  });

  it('always adds up to the whole, each part within one kobo of its exact share', () => {
    fc.assert(
      fc.property(anyKobo, fc.array(fc.integer({ min: 0, max: BASIS_POINTS }), { minLength: 1, maxLength: 30 }), (whole, weights) => {
        fc.pre(weights.some((w) => w > 0));
        const parts = apportion(whole, weights);
        const total = BigInt(weights.reduce((s, w) => s + w, 0));
        expect(parts.reduce((s, p) => s + p, 0n)).toBe(whole);
        parts.forEach((p, i) => {
          expect(typeof p).toBe('bigint');
          // |p − whole × w / total| < 1  ⇔  |p × total − whole × w| < total.
          const diff = p * total - whole * BigInt(weights[i]);
          expect(diff < total && diff > -total).toBe(true);
        });
      }),
    );
  });

  it('makes a plan of shares adding to 100 % balance exactly', () => {
    const shares = fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 12 }).map((s) => {
      const sum = s.reduce((a, b) => a + b, 0);
      // Scale to exactly 10,000 with the last taking the rest.
      const scaled = s.map((x) => Math.floor((x * BASIS_POINTS) / sum));
      scaled[scaled.length - 1] += BASIS_POINTS - scaled.reduce((a, b) => a + b, 0);
      return scaled;
    });
    fc.assert(
      fc.property(anyKobo, shares, (sum, bps) => {
        expect(planBalance(sum, milestoneAmounts(sum, bps.map((shareBp) => ({ shareBp }))))).toBe(0n);
      }),
    );
  });
});

describe('credit notes', () => {
  const invoiceLine = lineAmounts({ quantity: 1, unitPriceKobo: 20n, vatRateBp: 750 }); // net 20, VAT 2 (1.5 up)

  it('credits part of a line with the rule VAT, and the rest closes it exactly', () => {
    const first = creditLine(invoiceLine, 7n, 750); // 0.525 → 1
    expect(first).toEqual({ ok: true, netKobo: 7n, vatKobo: 1n });
    if (!first.ok) throw new Error();
    const left1 = remainingOfLine(invoiceLine, [first]);
    expect(left1).toEqual({ netKobo: 13n, vatKobo: 1n });
    const second = creditLine(left1, 7n, 750); // rounds to 1, capped at the 1 left
    expect(second).toEqual({ ok: true, netKobo: 7n, vatKobo: 1n });
    if (!second.ok) throw new Error();
    const left2 = remainingOfLine(invoiceLine, [first, second]);
    expect(left2).toEqual({ netKobo: 6n, vatKobo: 0n });
    expect(creditLine(left2, 6n, 750)).toEqual({ ok: true, netKobo: 6n, vatKobo: 0n });
  });

  it('refuses a credit above what is left, and an empty one', () => {
    expect(creditLine(invoiceLine, 21n, 750)).toEqual({ ok: false, message: 'A credit cannot exceed what is left of the line' });
    expect(creditLine(invoiceLine, 0n, 750).ok).toBe(false);
    expect(creditLine({ netKobo: 0n, vatKobo: 0n }, 1n, 750).ok).toBe(false);
  });

  it('a full credit of an invoice reverses exactly its net, VAT and gross', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (lines) => {
        const credits = lines.filter((l) => l.netKobo > 0n).map((l) => creditLine(l, l.netKobo, l.vatRateBp));
        const ok = credits.map((c) => (c.ok ? c : { netKobo: 0n, vatKobo: 0n }));
        expect(documentTotals(ok)).toEqual(documentTotals(lines));
      }),
    );
  });

  it('any sequence of partial credits never exceeds a line, and the last closes it to zero', () => {
    fc.assert(
      fc.property(line, fc.array(fc.bigInt({ min: 1n, max: 1_000_000_000_000n }), { maxLength: 12 }), (l, asks) => {
        const issued: { netKobo: bigint; vatKobo: bigint }[] = [];
        for (const ask of asks) {
          const left = remainingOfLine(l, issued);
          const c = creditLine(left, ask, l.vatRateBp);
          if (ask > left.netKobo) expect(c.ok).toBe(false);
          if (c.ok) issued.push(c);
          const after = remainingOfLine(l, issued);
          expect(after.netKobo >= 0n && after.vatKobo >= 0n).toBe(true);
        }
        const left = remainingOfLine(l, issued);
        if (left.netKobo > 0n) {
          const last = creditLine(left, left.netKobo, l.vatRateBp);
          if (!last.ok) throw new Error(last.message);
          issued.push(last);
        }
        const closed = remainingOfLine(l, issued);
        // A line with net 0 has VAT 0 too, so closing the net closes the line.
        expect(closed).toEqual({ netKobo: 0n, vatKobo: 0n });
      }),
    );
  });
});

describe('invoiceStatus', () => {
  const base = { total: 107_500n, credited: 0n, dueDate: '2026-12-31' };

  it('reads due, part-paid, paid, overdue, credited and an overpayment', () => {
    expect(invoiceStatus({ ...base, paid: 0n, today: '2026-12-31' })).toEqual({ status: 'due', payableKobo: 107_500n, appliedKobo: 0n, outstandingKobo: 107_500n, overpaidKobo: 0n });
    expect(invoiceStatus({ ...base, paid: 7_500n, today: '2026-12-01' })).toMatchObject({ status: 'part-paid', outstandingKobo: 100_000n });
    expect(invoiceStatus({ ...base, paid: 7_500n, today: '2027-01-01' })).toMatchObject({ status: 'overdue', appliedKobo: 7_500n, outstandingKobo: 100_000n });
    expect(invoiceStatus({ ...base, paid: 0n, today: '2027-01-01' }).status).toBe('overdue');
    expect(invoiceStatus({ ...base, paid: 107_500n, today: '2027-06-01' })).toMatchObject({ status: 'paid', outstandingKobo: 0n, overpaidKobo: 0n });
    expect(invoiceStatus({ ...base, paid: 110_000n, today: '2026-12-01' })).toMatchObject({ status: 'paid', appliedKobo: 107_500n, overpaidKobo: 2_500n });
    // A credit note for part: what is left is payable.
    expect(invoiceStatus({ ...base, credited: 7_500n, paid: 100_000n, today: '2027-01-01' })).toMatchObject({ status: 'paid', payableKobo: 100_000n });
    // Wholly credited, nothing paid: nothing to pay; paid before the credit: the payment is over.
    expect(invoiceStatus({ ...base, credited: 107_500n, paid: 0n, today: '2027-01-01' })).toMatchObject({ status: 'credited', outstandingKobo: 0n });
    expect(invoiceStatus({ ...base, credited: 107_500n, paid: 1n, today: '2027-01-01' })).toMatchObject({ status: 'paid', overpaidKobo: 1n });
    expect(() => invoiceStatus({ ...base, credited: 107_501n, paid: 0n, today: '2026-12-01' })).toThrow(RangeError);
  });

  const position = fc
    .record({ total: anyKobo, creditShare: fc.integer({ min: 0, max: 100 }), paid: anyKobo, more: fc.bigInt({ min: 0n, max: KOBO_MAX }), dueDate: day, today: day })
    .map(({ creditShare, ...p }) => ({ ...p, credited: (p.total * BigInt(creditShare)) / 100n }));

  it('applied + outstanding = total − credited, with any surplus as overpaid, all whole kobo', () => {
    fc.assert(
      fc.property(position, (p) => {
        const s = invoiceStatus(p);
        expect(INVOICE_STATUSES).toContain(s.status);
        expect(s.appliedKobo + s.outstandingKobo).toBe(p.total - p.credited);
        expect(s.appliedKobo + s.overpaidKobo).toBe(p.paid);
        for (const v of [s.payableKobo, s.appliedKobo, s.outstandingKobo, s.overpaidKobo]) expect(typeof v === 'bigint' && v >= 0n).toBe(true);
        if (p.paid <= p.total - p.credited) expect(s.overpaidKobo).toBe(0n);
      }),
    );
  });

  it('only moves forward as payments come in: due or overdue → part-paid → paid', () => {
    const rank = { due: 0, overdue: 0, 'part-paid': 1, paid: 2, credited: 2 } as const;
    fc.assert(
      fc.property(position, (p) => {
        const before = invoiceStatus(p);
        const after = invoiceStatus({ ...p, paid: p.paid + p.more });
        expect(rank[after.status]).toBeGreaterThanOrEqual(rank[before.status]);
        expect(after.outstandingKobo <= before.outstandingKobo).toBe(true);
        if (before.status === 'paid') expect(after.status).toBe('paid');
      }),
    );
  });
});
