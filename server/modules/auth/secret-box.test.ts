import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isLegacyPlainSecret, MfaSecretUnreadableError, openMfaSecret, sealMfaSecret } from './secret-box.ts';
import { generateTotpSecret } from './totp.ts';

const key = randomBytes(32);
const userId = randomUUID();

describe('sealed TOTP secrets', () => {
  it('opens what it sealed, with a fresh IV each time, in the v1 base64url format', () => {
    const secret = generateTotpSecret();
    const a = sealMfaSecret(key, userId, secret);
    const b = sealMfaSecret(key, userId, secret);
    expect(a).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]{43,}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(openMfaSecret(key, userId, a)).toEqual({ secret, legacy: false });
    expect(isLegacyPlainSecret(a)).toBe(false);
  });

  it('hands back plain-text values of earlier versions, flagged as legacy', () => {
    const secret = generateTotpSecret();
    expect(isLegacyPlainSecret(secret)).toBe(true);
    expect(openMfaSecret(key, userId, secret)).toEqual({ secret, legacy: true });
  });

  it('refuses another key, another user, an altered value and an unknown version', () => {
    const sealed = sealMfaSecret(key, userId, generateTotpSecret());
    const [version, iv, tag, body] = sealed.split(':');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    for (const [k, id, value] of [
      [randomBytes(32), userId, sealed],
      [key, randomUUID(), sealed],
      [key, userId, [version, iv, tag, flipped.toString('base64url')].join(':')],
      [key, userId, ['v2', iv, tag, body].join(':')],
      [key, userId, 'v1:only:three'],
    ] as const) {
      expect(() => openMfaSecret(k, id, value)).toThrow(MfaSecretUnreadableError);
    }
  });
});
