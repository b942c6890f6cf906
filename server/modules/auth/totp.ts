import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// RFC 6238 time-based one-time passwords over RFC 4226 HOTP, with node:crypto only.

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps expect). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error('Not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';
export interface TotpOptions {
  digits?: number;
  stepSeconds?: number;
  algorithm?: TotpAlgorithm;
}

/** RFC 4226 HOTP value of a counter. */
export function hotp(key: Uint8Array, counter: number, digits = 6, algorithm: TotpAlgorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step a moment falls into. */
export function timeStep(timeMs: number, stepSeconds = 30): number {
  return Math.floor(timeMs / 1000 / stepSeconds);
}

/** RFC 6238 code at a moment. */
export function totp(key: Uint8Array, timeMs: number, options: TotpOptions = {}): string {
  return hotp(key, timeStep(timeMs, options.stepSeconds), options.digits ?? 6, options.algorithm ?? 'sha1');
}

/**
 * The time step a code belongs to, looking one step back and one ahead for clock drift between
 * the phone and the server (RFC 6238 section 5.2); null when it matches none.
 */
export function matchTotp(key: Uint8Array, code: string, timeMs: number, options: TotpOptions & { window?: number } = {}): number | null {
  const digits = options.digits ?? 6;
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  const now = timeStep(timeMs, options.stepSeconds);
  const window = options.window ?? 1;
  for (let delta = -window; delta <= window; delta++) {
    const expected = hotp(key, now + delta, digits, options.algorithm ?? 'sha1');
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code))) return now + delta;
  }
  return null;
}

/** A new 160-bit secret (RFC 4226 recommends the HMAC-SHA1 output size), base32. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The otpauth:// URL authenticator apps read from the QR code. */
export function otpauthUrl(input: { issuer: string; account: string; secret: string }): string {
  const label = encodeURIComponent(`${input.issuer}:${input.account}`);
  const params = new URLSearchParams({ secret: input.secret, issuer: input.issuer, algorithm: 'SHA1', digits: '6', period: '30' });
  return `otpauth://totp/${label}?${params.toString()}`;
}
