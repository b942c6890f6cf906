import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUrl, totp } from './totp.ts';

// RFC 6238 appendix B: seeds are the ASCII digits repeated to the hash's key size.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: Array<[number, string, string, string]> = [
  // time (s), SHA1, SHA256, SHA512
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  for (const [seconds, sha1, sha256, sha512] of VECTORS) {
    it(`matches the RFC 6238 test vectors at T=${seconds}`, () => {
      const at = seconds * 1000;
      expect(totp(SEEDS.sha1, at, { digits: 8, algorithm: 'sha1' })).toBe(sha1);
      expect(totp(SEEDS.sha256, at, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
      expect(totp(SEEDS.sha512, at, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
    });
  }

  it('matches the RFC 4226 HOTP test values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => expect(hotp(SEEDS.sha1, counter)).toBe(code));
  });

  it('accepts the code of the previous and next 30-second step, not further', () => {
    const now = 1_700_000_000_000;
    const key = SEEDS.sha1;
    expect(matchTotp(key, totp(key, now), now)).toBe(Math.floor(now / 30_000));
    expect(matchTotp(key, totp(key, now - 30_000), now)).not.toBeNull();
    expect(matchTotp(key, totp(key, now + 30_000), now)).not.toBeNull();
    expect(matchTotp(key, totp(key, now - 90_000), now)).toBeNull();
    expect(matchTotp(key, '12345', now)).toBeNull();
    expect(matchTotp(key, 'abcdef', now)).toBeNull();
  });

  it('round-trips base32 as authenticator apps write it', () => {
    expect(base32Encode(Buffer.from('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq').toString()).toBe('12345678901234567890');
    expect(() => base32Decode('not base32!')).toThrow();
  });

  it('builds an otpauth URL with issuer and account', () => {
    const url = new URL(otpauthUrl({ issuer: 'Kora Delta', account: 'ada@example.test', secret: 'JBSWY3DPEHPK3PXP' }));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Kora Delta:ada@example.test');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('Kora Delta');
  });
});
