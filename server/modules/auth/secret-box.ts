import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../../common/errors.ts';

// TOTP secrets at rest: AES-256-GCM under MFA_ENCRYPTION_KEY (docs/decisions/080-totp-secrets-encrypted.md).
// Sealed as `v2:<key id>:<iv>:<tag>:<ciphertext>` (base64url): the key id, a truncated one-way hash
// of the key, says which key opens a value, so a rotation (docs/decisions/082-rotating-the-totp-key.md)
// needs no trial decryption. Values of the first version, `v1:<iv>:<tag>:<ciphertext>`, carry no key
// id: they are still read, trying the current key and then the previous ones. The user's id is
// authenticated data: a sealed secret copied into another user's row does not open.

const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 6;

/** The current key, which seals, and the keys it replaced, which only open (MFA_ENCRYPTION_KEY_PREVIOUS). */
export interface MfaKeyring {
  current: Buffer;
  previous: readonly Buffer[];
}

/** A stored secret opened: `key` says by what, so anything but `current` can be re-sealed. */
export interface OpenedMfaSecret {
  secret: string;
  /** `none`: plain text written before encryption; `previous`: a key of MFA_ENCRYPTION_KEY_PREVIOUS. */
  key: 'none' | 'current' | 'previous';
}

/** The public id of a key: 48 bits of a SHA-256 of it, which tells keys apart and reveals nothing of them. */
export const mfaKeyId = (key: Buffer) =>
  createHash('sha256').update('totp-secret-key-id:').update(key).digest().subarray(0, KEY_ID_BYTES).toString('base64url');

const additionalData = (userId: string, header = '') => Buffer.from(`users.mfa:${header}${userId}`, 'utf8');

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

/** Encrypts a base32 TOTP secret for the users row of `userId` with `key` (always the current key). */
export function sealMfaSecret(key: Buffer, userId: string, secret: string): string {
  const keyId = mfaKeyId(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(userId, `${VERSION}:${keyId}:`));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
}

/** The plain text of a GCM value, or null when the key (or the value) is not the right one. */
function decrypt(key: Buffer, aad: Buffer, iv: string, tag: string, body: string): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // GCM refused the tag: another key, or a value that was altered.
    return null;
  }
}

/**
 * The base32 secret of a stored value and the key that opened it. Plain (legacy) values come back as
 * they are, so the caller can seal them; anything no configured key can open throws
 * MfaSecretUnreadableError (never a secret, never a code accepted). A bare key means no previous keys.
 */
export function openMfaSecret(keys: Buffer | MfaKeyring, userId: string, stored: string): OpenedMfaSecret {
  if (isLegacyPlainSecret(stored)) return { secret: stored, key: 'none' };
  const { current, previous } = Buffer.isBuffer(keys) ? { current: keys, previous: [] } : keys;
  const candidates = [{ key: current, which: 'current' as const }, ...previous.map((key) => ({ key, which: 'previous' as const }))];
  const parts = stored.split(':');
  if (parts[0] === 'v1' && parts.length === 4 && parts[1] && parts[2]) {
    // No key id in v1: the current key first (the usual case), then the previous ones.
    const [, iv, tag, body] = parts;
    for (const { key, which } of candidates) {
      const secret = decrypt(key, additionalData(userId), iv, tag, body);
      if (secret !== null) return { secret, key: which };
    }
  } else if (parts[0] === VERSION && parts.length === 5 && parts[1] && parts[2] && parts[3]) {
    const [, keyId, iv, tag, body] = parts;
    // Normally one candidate; two keys with the same 48-bit id would both be tried.
    for (const { key, which } of candidates.filter((c) => mfaKeyId(c.key) === keyId)) {
      const secret = decrypt(key, additionalData(userId, `${VERSION}:${keyId}:`), iv, tag, body);
      if (secret !== null) return { secret, key: which };
    }
  }
  throw new MfaSecretUnreadableError(userId);
}
