import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealMfaSecretV1 } from '../../../tests/helpers/mfa-v1-seal.ts';
import { isLegacyPlainSecret, mfaKeyId, MfaSecretUnreadableError, openMfaSecret, sealMfaSecret } from './secret-box.ts';
import { generateTotpSecret } from './totp.ts';

const key = randomBytes(32);
const userId = randomUUID();

describe('sealed TOTP secrets', () => {
  it('opens what it sealed, with a fresh IV each time, in the v2 base64url format naming its key', () => {
    const secret = generateTotpSecret();
    const a = sealMfaSecret(key, userId, secret);
    const b = sealMfaSecret(key, userId, secret);
    expect(a).toMatch(/^v2:[\w-]{8}:[\w-]{16}:[\w-]{22}:[\w-]{43,}$/);
    expect(a.split(':')[1]).toBe(mfaKeyId(key));
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(openMfaSecret(key, userId, a)).toEqual({ secret, key: 'current' });
    expect(isLegacyPlainSecret(a)).toBe(false);
  });

  it('gives every key its own id, which does not contain the key', () => {
    const other = randomBytes(32);
    expect(mfaKeyId(key)).toBe(mfaKeyId(Buffer.from(key)));
    expect(mfaKeyId(key)).not.toBe(mfaKeyId(other));
    for (const encoding of ['base64', 'base64url', 'hex'] as const) expect(key.toString(encoding)).not.toContain(mfaKeyId(key));
  });

  it('hands back plain-text values of earlier versions, flagged as sealed by no key', () => {
    const secret = generateTotpSecret();
    expect(isLegacyPlainSecret(secret)).toBe(true);
    expect(openMfaSecret(key, userId, secret)).toEqual({ secret, key: 'none' });
  });

  it('still opens v1 values, under the current key or a previous one', () => {
    const secret = generateTotpSecret();
    const older = randomBytes(32);
    const keys = { current: key, previous: [randomBytes(32), older] };
    expect(openMfaSecret(keys, userId, sealMfaSecretV1(key, userId, secret))).toEqual({ secret, key: 'current' });
    expect(openMfaSecret(keys, userId, sealMfaSecretV1(older, userId, secret))).toEqual({ secret, key: 'previous' });
    expect(() => openMfaSecret(key, userId, sealMfaSecretV1(older, userId, secret))).toThrow(MfaSecretUnreadableError);
  });

  it('opens a v2 value under a previous key, and reports that key so it can be re-sealed', () => {
    const secret = generateTotpSecret();
    const old = randomBytes(32);
    const sealed = sealMfaSecret(old, userId, secret);
    expect(openMfaSecret({ current: key, previous: [randomBytes(32), old] }, userId, sealed)).toEqual({ secret, key: 'previous' });
    expect(() => openMfaSecret({ current: key, previous: [] }, userId, sealed)).toThrow(MfaSecretUnreadableError);
  });

  it('refuses another key, another user, an altered value or key id, and an unknown version', () => {
    const sealed = sealMfaSecret(key, userId, generateTotpSecret());
    const [version, keyId, iv, tag, body] = sealed.split(':');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    const otherKey = randomBytes(32);
    for (const [k, id, value] of [
      [randomBytes(32), userId, sealed],
      [key, randomUUID(), sealed],
      [key, userId, [version, keyId, iv, tag, flipped.toString('base64url')].join(':')],
      // Relabelled as another configured key's value: that key does not open it either.
      [{ current: key, previous: [otherKey] }, userId, [version, mfaKeyId(otherKey), iv, tag, body].join(':')],
      // Its parts without the key id, dressed as a v1 value: the key id is authenticated too.
      [key, userId, ['v1', iv, tag, body].join(':')],
      [key, userId, ['v3', keyId, iv, tag, body].join(':')],
      [key, userId, 'v1:only:three'],
      [key, userId, 'v2:only:four:parts'],
    ] as const) {
      expect(() => openMfaSecret(k, id, value)).toThrow(MfaSecretUnreadableError);
    }
  });
});
