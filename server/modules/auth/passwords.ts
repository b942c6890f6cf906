import { readFileSync } from 'node:fs';
import argon2 from 'argon2';
import { AppError } from '../../../common/errors.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT } from '../../../common/schemas/auth.ts';

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB memory, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const COMMON_PASSWORDS = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#')),
);

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

// Verifying against this when the account does not exist makes both answers take the same time.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= argon2.hash('no account has this password, it only burns time', ARGON2_OPTIONS));

/** Checks a password against a stored hash; with no hash it still spends the same time and says no. */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  try {
    if (!hash) {
      await argon2.verify(await dummy(), password);
      return false;
    }
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** True when the password is one attackers try first (or a trivial pattern). */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  // One repeated character, or the same short chunk over and over ("abcabcabcabc").
  if (/^(.{1,4})\1+$/.test(lower)) return true;
  return false;
}

/**
 * The password rules (length, common passwords, not the account's own name); throws a 400 with
 * the reason so forms can show it.
 */
export function assertAcceptablePassword(password: string, account: { username?: string | null; email?: string | null } = {}) {
  if (password.length < PASSWORD_MIN_LENGTH) throw new AppError('VALIDATION_FAILED', PASSWORD_TOO_SHORT);
  if (password.length > PASSWORD_MAX_LENGTH) throw new AppError('VALIDATION_FAILED', 'The password is too long.');
  const lower = password.toLowerCase();
  const own = [account.username, account.email, account.email?.split('@')[0]].filter((v): v is string => !!v && v.length >= 3);
  if (isCommonPassword(password) || own.some((v) => lower === v.toLowerCase())) {
    throw new AppError('VALIDATION_FAILED', PASSWORD_TOO_COMMON);
  }
}
