import { KOBO_MAX } from './money.ts';

/**
 * The payment plan's arithmetic (issue 26, decision 298): integer kobo as bigint, rates as integer
 * basis points, whole-number quantities. Nothing here passes an amount through a floating-point
 * number; the one rounding of a line is its VAT, half up, in kobo.
 */

/** 100 % in basis points: a rate of 750 is 7.5 %. */
export const BASIS_POINTS = 10_000;
/** Nigerian VAT (7.5 %) in basis points: the default of the `finance_settings.vat_rate_bp` setting. */
export const VAT_RATE_BP_DEFAULT = 750;
/** The largest quantity on a line (quantities are whole numbers: decision 298). */
export const LINE_QUANTITY_MAX = 1_000_000;

const BP = BigInt(BASIS_POINTS);

interface Amounts {
  netKobo: bigint;
  vatKobo: bigint;
}

/** A document's (or a line's) net, VAT and gross, gross always net + VAT. */
export interface Totals extends Amounts {
  grossKobo: bigint;
}

function assertRate(rateBp: number): void {
  if (!Number.isSafeInteger(rateBp) || rateBp < 0 || rateBp > BASIS_POINTS) throw new RangeError(`VAT rate must be 0..${BASIS_POINTS} basis points`);
}

function assertKobo(kobo: bigint, what: string): void {
  if (kobo < 0n || kobo > KOBO_MAX) throw new RangeError(`${what} must be 0..${KOBO_MAX} kobo`);
}

/**
 * VAT on a net amount by the rule of decision 298: round half up of net × rate / 10,000, in kobo
 * (floor((net × rate + 5000) / 10000)). ₦0.10 at 750 bp is 0.75 kobo → 1n.
 */
export function vatOf(netKobo: bigint, rateBp: number): bigint {
  assertRate(rateBp);
  assertKobo(netKobo, 'A net amount');
  return (netKobo * BigInt(rateBp) + BP / 2n) / BP;
}

/** One invoice line's amounts: net = quantity × unit price (exact), VAT by `vatOf`, gross = net + VAT. */
export function lineAmounts(line: { quantity: number; unitPriceKobo: bigint; vatRateBp: number }): Totals {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1 || line.quantity > LINE_QUANTITY_MAX) {
    throw new RangeError(`A quantity must be a whole number 1..${LINE_QUANTITY_MAX}`);
  }
  assertKobo(line.unitPriceKobo, 'A unit price');
  const netKobo = BigInt(line.quantity) * line.unitPriceKobo;
  assertKobo(netKobo, "A line's net");
  const vatKobo = vatOf(netKobo, line.vatRateBp);
  return { netKobo, vatKobo, grossKobo: netKobo + vatKobo };
}

/** A document's totals: the sums of its lines' net and VAT (never VAT recomputed on the total). */
export function documentTotals(lines: readonly Amounts[]): Totals {
  let netKobo = 0n;
  let vatKobo = 0n;
  for (const line of lines) {
    netKobo += line.netKobo;
    vatKobo += line.vatKobo;
  }
  return { netKobo, vatKobo, grossKobo: netKobo + vatKobo };
}

/**
 * Splits `whole` kobo in proportion to integer `weights` by the largest-remainder method: each part
 * is the floor of its exact share, and the kobo left over go one each to the largest remainders
 * (ties to the earlier part). The parts add up to `whole` exactly and each differs from its exact
 * share by less than one kobo.
 */
export function apportion(whole: bigint, weights: readonly number[]): bigint[] {
  if (whole < 0n) throw new RangeError('The whole must not be negative');
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new RangeError('Weights must be non-negative whole numbers');
  const total = weights.reduce((sum, w) => sum + BigInt(w), 0n);
  if (total === 0n) throw new RangeError('The weights must not all be zero');
  const parts = weights.map((w) => (whole * BigInt(w)) / total);
  const remainders = weights.map((w, i) => ({ i, r: (whole * BigInt(w)) % total }));
  let left = whole - parts.reduce((sum, p) => sum + p, 0n);
  // Stable sort: equal remainders keep the list's order.
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts;
}

/** A payment milestone's amount as the plan defines it: fixed kobo, or a share of the contract sum. */
export type MilestoneAmount = { amountKobo: bigint } | { shareBp: number };

/**
 * The kobo amount of each milestone against a contract sum: fixed amounts as they are, shares by
 * `apportion` over the whole sum with the rest (10,000 − Σ shares) as one more weight, so share
 * amounts never depend on the list's order. Shares above 100 % in total are refused.
 */
export function milestoneAmounts(contractSumKobo: bigint, milestones: readonly MilestoneAmount[]): bigint[] {
  const shares = milestones.map((m) => ('shareBp' in m ? m.shareBp : 0));
  const shareTotal = shares.reduce((sum, s) => sum + s, 0);
  if (shares.some((s) => !Number.isSafeInteger(s) || s < 0) || shareTotal > BASIS_POINTS) throw new RangeError('Shares must add up to at most 10,000 basis points');
  const split = shareTotal === 0 || contractSumKobo === 0n ? shares.map(() => 0n) : apportion(contractSumKobo, [...shares, BASIS_POINTS - shareTotal]).slice(0, -1);
  return milestones.map((m, i) => ('shareBp' in m ? split[i] : m.amountKobo));
}

/** What the plan leaves unplanned: contract sum − Σ amounts (0: it adds up; negative: planned past the sum). */
export function planBalance(contractSumKobo: bigint, amounts: readonly bigint[]): bigint {
  return amounts.reduce((left, a) => left - a, contractSumKobo);
}

/** What is left of an invoice line to credit, after the credit lines issued against it. */
export function remainingOfLine(line: Amounts, credits: readonly Amounts[]): Amounts {
  const credited = documentTotals(credits);
  return { netKobo: line.netKobo - credited.netKobo, vatKobo: line.vatKobo - credited.vatKobo };
}

type CreditLine = { ok: true; netKobo: bigint; vatKobo: bigint } | { ok: false; message: string };

/**
 * A credit line of `creditNetKobo` against what is left of an invoice line: its VAT is the rule's
 * (`vatOf`), capped at the line's remaining VAT, and crediting all the remaining net credits exactly
 * the remaining VAT, so credits never exceed a line and always close it to zero.
 */
export function creditLine(remaining: Amounts, creditNetKobo: bigint, rateBp: number): CreditLine {
  if (creditNetKobo <= 0n) return { ok: false, message: 'A credit must be more than nothing' };
  if (creditNetKobo > remaining.netKobo) return { ok: false, message: 'A credit cannot exceed what is left of the line' };
  if (creditNetKobo === remaining.netKobo) return { ok: true, netKobo: creditNetKobo, vatKobo: remaining.vatKobo };
  const vat = vatOf(creditNetKobo, rateBp);
  return { ok: true, netKobo: creditNetKobo, vatKobo: vat < remaining.vatKobo ? vat : remaining.vatKobo };
}

export const INVOICE_STATUSES = ['due', 'overdue', 'part-paid', 'paid', 'credited'] as const;
type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

interface InvoicePosition {
  status: InvoiceStatus;
  /** Gross less issued credit notes: what the client owes in all. */
  payableKobo: bigint;
  /** The part of the payments that counts against the payable amount. */
  appliedKobo: bigint;
  /** What is still owed: payable − applied (never negative). */
  outstandingKobo: bigint;
  /** Payments past the payable amount, flagged for staff (0 normally). */
  overpaidKobo: bigint;
}

/**
 * An issued invoice's position from its gross (`total`), the gross of its issued credit notes, the
 * payments not voided, its due date and today (both 'YYYY-MM-DD', Lagos): credited (nothing to pay,
 * nothing paid), paid (nothing outstanding), overdue (after the due date), part-paid, or due.
 */
export function invoiceStatus(input: { total: bigint; credited: bigint; paid: bigint; dueDate: string; today: string }): InvoicePosition {
  const { total, credited, paid } = input;
  if (total < 0n || credited < 0n || paid < 0n || credited > total) throw new RangeError('Amounts must not be negative, nor credits above the total');
  const payableKobo = total - credited;
  const appliedKobo = paid < payableKobo ? paid : payableKobo;
  const outstandingKobo = payableKobo - appliedKobo;
  const overpaidKobo = paid - appliedKobo;
  const status: InvoiceStatus =
    payableKobo === 0n && paid === 0n ? 'credited' : outstandingKobo === 0n ? 'paid' : input.today > input.dueDate ? 'overdue' : paid > 0n ? 'part-paid' : 'due';
  return { status, payableKobo, appliedKobo, outstandingKobo, overpaidKobo };
}
