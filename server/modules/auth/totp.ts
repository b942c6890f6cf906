import { HOTP, Secret, TOTP } from 'otpauth';

// RFC 6238 time-based one-time passwords (RFC 4226 HOTP underneath), through the otpauth library.
// This module keeps the small API the rest of the code uses; replay protection, the encrypted
// secrets and the recovery codes stay in mfa.service.ts and secret-box.ts (decisions 080-082).

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';
export interface TotpOptions {
  digits?: number;
  stepSeconds?: number;
  algorithm?: TotpAlgorithm;
}

const DEFAULTS = { digits: 6, stepSeconds: 30, algorithm: 'sha1' as TotpAlgorithm };
const secretOf = (key: Uint8Array) => new Secret({ buffer: Uint8Array.from(key).buffer });

/** RFC 4648 base32 without padding (what authenticator apps expect). */
export function base32Encode(bytes: Uint8Array): string {
  return secretOf(bytes).base32;
}

/** Decodes base32 as authenticator apps show it (any case, spaces and dashes allowed); throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  if (!/^[A-Z2-7]*$/.test(clean)) throw new Error('Not base32');
  return Buffer.from(Secret.fromBase32(clean).bytes);
}

/** RFC 4226 HOTP value of a counter. */
export function hotp(key: Uint8Array, counter: number, digits = DEFAULTS.digits, algorithm: TotpAlgorithm = DEFAULTS.algorithm): string {
  return new HOTP({ secret: secretOf(key), digits, algorithm: algorithm.toUpperCase() }).generate({ counter });
}

/** The time step a moment falls into. */
export function timeStep(timeMs: number, stepSeconds = DEFAULTS.stepSeconds): number {
  return TOTP.counter({ period: stepSeconds, timestamp: timeMs });
}

function totpOf(key: Uint8Array, options: TotpOptions) {
  return new TOTP({
    secret: secretOf(key),
    digits: options.digits ?? DEFAULTS.digits,
    period: options.stepSeconds ?? DEFAULTS.stepSeconds,
    algorithm: (options.algorithm ?? DEFAULTS.algorithm).toUpperCase(),
  });
}

/** RFC 6238 code at a moment. */
export function totp(key: Uint8Array, timeMs: number, options: TotpOptions = {}): string {
  return totpOf(key, options).generate({ timestamp: timeMs });
}

/**
 * The time step a code belongs to, looking one step back and one ahead for clock drift between
 * the phone and the server (RFC 6238 section 5.2); null when it matches none. The step lets the
 * caller refuse a code used before (replay).
 */
export function matchTotp(key: Uint8Array, code: string, timeMs: number, options: TotpOptions & { window?: number } = {}): number | null {
  const digits = options.digits ?? DEFAULTS.digits;
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  // otpauth compares in constant time and answers the matching step's offset from now.
  const delta = totpOf(key, options).validate({ token: code, timestamp: timeMs, window: options.window ?? 1 });
  return delta === null ? null : timeStep(timeMs, options.stepSeconds) + delta;
}

/** A new 160-bit secret (RFC 4226 recommends the HMAC-SHA1 output size), base32. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL authenticator apps read from the QR code. */
export function otpauthUrl(input: { issuer: string; account: string; secret: string }): string {
  return new TOTP({ issuer: input.issuer, label: input.account, secret: input.secret, algorithm: 'SHA1', digits: 6, period: 30 }).toString();
}
