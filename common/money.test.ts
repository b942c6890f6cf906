import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KOBO_MAX, formatKobo, formatNaira, koboToDecimal, koboToNairaNumber, numberToKobo, parseNairaToKobo } from './money.ts';

const kobo = (text: string, allowNegative = false) => {
  const r = parseNairaToKobo(text, { allowNegative });
  if (!r.ok) throw new Error(r.message);
  return r.kobo;
};

describe('parseNairaToKobo', () => {
  it('reads grouped and plain amounts exactly', () => {
    expect(kobo('4,500,000.50')).toBe(450000050n);
    expect(kobo('4500000.5')).toBe(450000050n);
    expect(kobo('₦4,500,000.50')).toBe(450000050n);
    expect(kobo(' 0.01 ')).toBe(1n);
    expect(kobo('0')).toBe(0n);
    expect(kobo('12')).toBe(1200n);
    // 0.1 + 0.2 in floating point is not 0.3; in kobo it is.
    expect(kobo('0.1') + kobo('0.2')).toBe(kobo('0.3'));
  });

  it('refuses more than two decimals, misplaced separators, exponents and words', () => {
    for (const bad of ['1.005', '4,50,000', '1e5', 'lots', '', '.5', '1.', '--1', '+1', '1,000.5.0', 'NaN', 'Infinity']) {
      expect(parseNairaToKobo(bad).ok, bad).toBe(false);
    }
    expect(parseNairaToKobo('1.005')).toEqual({ ok: false, message: 'Use at most two decimals (kobo)' });
  });

  it('takes negatives only where allowed', () => {
    expect(parseNairaToKobo('-12.30')).toEqual({ ok: false, message: 'The amount must not be negative' });
    expect(kobo('-12.30', true)).toBe(-1230n);
    expect(kobo('-₦1,000', true)).toBe(-100000n);
  });

  it('refuses amounts past the largest stored', () => {
    expect(parseNairaToKobo(koboToDecimal(KOBO_MAX)).ok).toBe(true);
    expect(parseNairaToKobo(koboToDecimal(KOBO_MAX + 1n))).toEqual({ ok: false, message: 'The amount is too large' });
  });
});

describe('formatKobo', () => {
  it('writes naira with thousands separators and two decimals', () => {
    expect(formatKobo(450000050n)).toBe('₦4,500,000.50');
    expect(formatKobo(0n)).toBe('₦0.00');
    expect(formatKobo(5n)).toBe('₦0.05');
    expect(formatKobo(-123456n)).toBe('-₦1,234.56');
    expect(formatKobo(450000050n, { signed: true })).toBe('+₦4,500,000.50');
    expect(formatKobo('100000000')).toBe('₦1,000,000.00');
    expect(formatNaira(1250000.5)).toBe('₦1,250,000.50');
    expect(formatNaira(0)).toBe('₦0.00');
  });
});

describe('kobo round trips (property)', () => {
  const anyKobo = fc.bigInt({ min: -KOBO_MAX, max: KOBO_MAX });

  it('formatted text parses back to the same kobo', () => {
    fc.assert(fc.property(anyKobo, (k) => kobo(formatKobo(k), true) === k && kobo(koboToDecimal(k), true) === k));
  });

  it('the JSON number of an amount converts back to the same kobo', () => {
    fc.assert(
      fc.property(anyKobo, (k) => {
        const r = numberToKobo(koboToNairaNumber(k), { allowNegative: true });
        return r.ok && r.kobo === k;
      }),
    );
  });

  it('a sum of parsed amounts is the parse of the exact sum', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: KOBO_MAX / 2n }), fc.bigInt({ min: 0n, max: KOBO_MAX / 2n }), (a, b) => kobo(koboToDecimal(a)) + kobo(koboToDecimal(b)) === a + b),
    );
  });

  it('never accepts a third decimal', () => {
    fc.assert(fc.property(fc.nat(), fc.integer({ min: 100, max: 999 }), (whole, frac) => !parseNairaToKobo(`${whole}.${frac}`).ok));
  });
});
