/**
 * Money is integer kobo (100 kobo = ₦1) end to end (decision 294): text people type is parsed to kobo
 * by string arithmetic, kobo is formatted by string arithmetic, and no amount ever passes through a
 * floating-point number on its way in or out.
 */

/**
 * The largest amount taken (bigint holds far more): 15 significant digits, so that every amount's
 * naira JSON number (the projects API's budget) reads back as exactly the same kobo.
 */
export const KOBO_MAX = 999_999_999_999_999n; // ₦9,999,999,999,999.99

export type ParsedKobo = { ok: true; kobo: bigint } | { ok: false; message: string };

const AMOUNT = /^(-)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * '4,500,000.50', '4500000.5', '₦4,500,000.50' or '-12' to kobo. Thousands separators must be in
 * the right places; more than two decimals, signs other than a leading '-' (only with
 * `allowNegative`), exponents and anything past KOBO_MAX are refused with a message.
 */
export function parseNairaToKobo(text: string, { allowNegative = false }: { allowNegative?: boolean } = {}): ParsedKobo {
  const trimmed = text.trim().replace(/^(-?)\s*₦\s*/, '$1');
  const m = AMOUNT.exec(trimmed);
  if (!m) {
    if (/^-?[\d,]*\.\d{3,}$/.test(trimmed)) return { ok: false, message: 'Use at most two decimals (kobo)' };
    return { ok: false, message: 'Enter an amount such as 4,500,000.50' };
  }
  const [, minus, whole, decimals = ''] = m;
  if (minus && !allowNegative) return { ok: false, message: 'The amount must not be negative' };
  const magnitude = BigInt(whole.replace(/,/g, '')) * 100n + BigInt(decimals.padEnd(2, '0') || '0');
  if (magnitude > KOBO_MAX) return { ok: false, message: 'The amount is too large' };
  return { ok: true, kobo: minus ? -magnitude : magnitude };
}

/**
 * A JSON number (the projects API's budget, a number by the specification) to kobo, exactly as its
 * shortest decimal text reads ('1250000.5' → 125000050n); exponent forms and more than two decimals
 * are refused.
 */
export function numberToKobo(value: number, options?: { allowNegative?: boolean }): ParsedKobo {
  if (!Number.isFinite(value)) return { ok: false, message: 'Enter an amount such as 4,500,000.50' };
  return parseNairaToKobo(String(value), options);
}

const asBigInt = (kobo: bigint | number | string): bigint => (typeof kobo === 'bigint' ? kobo : BigInt(kobo));

/** Kobo as plain decimal naira text: 450000050n → '4500000.50', -5n → '-0.05'. */
export function koboToDecimal(kobo: bigint | number | string): string {
  const k = asBigInt(kobo);
  const abs = k < 0n ? -k : k;
  return `${k < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Kobo as the nearest JSON number of naira (for the specification's numeric budget; exact up to KOBO_MAX). */
export const koboToNairaNumber = (kobo: bigint | number | string): number => Number(koboToDecimal(kobo));

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Kobo as people read it: 450000050n → '₦4,500,000.50'; negative '-₦12.00'; `signed` puts '+' on positive amounts. */
export function formatKobo(kobo: bigint | number | string, { signed = false }: { signed?: boolean } = {}): string {
  const k = asBigInt(kobo);
  const abs = k < 0n ? -k : k;
  const sign = k < 0n ? '-' : signed && k > 0n ? '+' : '';
  return `${sign}₦${groupThousands((abs / 100n).toString())}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Naira as people read it: '₦1,250,000.00' (a numeric budget from the API; formatted through its decimal text, not arithmetic). */
export function formatNaira(value: number): string {
  const parsed = numberToKobo(Math.abs(value) < 1e-9 ? 0 : value, { allowNegative: true });
  return parsed.ok ? formatKobo(parsed.kobo) : `₦${value}`;
}
