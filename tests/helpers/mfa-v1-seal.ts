import { createCipheriv, randomBytes } from 'node:crypto';

/**
 * Seals a TOTP secret exactly as the first format did (`v1:<iv>:<tag>:<ciphertext>`, decision 080),
 * so tests can prove that values written by earlier versions are still read. Production code no
 * longer writes this format.
 */
export function sealMfaSecretV1(key: Buffer, userId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`users.mfa:${userId}`, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
}
