import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../../../common/errors.ts';

// TOTP secrets at rest: AES-256-GCM under MFA_ENCRYPTION_KEY (docs/decisions/080-totp-secrets-encrypted.md).
// Stored as `v1:<iv>:<tag>:<ciphertext>` (base64url), so another key or cipher can come later as v2
// without guessing what a row holds. The user's id is authenticated data: a sealed secret copied
// into another user's row does not open.

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const MFA_SECRET_UNREADABLE =
  'Two-step verification cannot be checked right now: the server cannot read the stored authenticator key (its encryption key has changed). Please contact the site administrator.';

/** A stored secret that the configured key cannot open: wrong key, or a damaged value. */
export class MfaSecretUnreadableError extends AppError {
  constructor(readonly userId: string) {
    super('SERVICE_UNAVAILABLE', MFA_SECRET_UNREADABLE);
  }
}

/** True for values written before encryption (plain base32, which never contains ':'). */
export const isLegacyPlainSecret = (stored: string) => !stored.includes(':');

/** Encrypts a base32 TOTP secret for the users row of `userId`. */
export function sealMfaSecret(key: Buffer, userId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(`users.mfa:${userId}`, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
}

/**
 * The base32 secret of a stored value. Plain (legacy) values come back as they are, flagged so the
 * caller can seal them; anything the key cannot open throws MfaSecretUnreadableError (never a
 * secret, never a code accepted).
 */
export function openMfaSecret(key: Buffer, userId: string, stored: string): { secret: string; legacy: boolean } {
  if (isLegacyPlainSecret(stored)) return { secret: stored, legacy: true };
  const [version, iv, tag, body, ...rest] = stored.split(':');
  if (version !== VERSION || rest.length || !iv || !tag || body === undefined) throw new MfaSecretUnreadableError(userId);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`users.mfa:${userId}`, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const secret = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return { secret, legacy: false };
  } catch {
    // GCM refused the tag: another key, or a value that was altered.
    throw new MfaSecretUnreadableError(userId);
  }
}
