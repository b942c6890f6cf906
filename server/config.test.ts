import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ConfigError, DEVELOPMENT_MFA_ENCRYPTION_KEY, loadConfig } from './config.ts';

const PROD_KEY = randomBytes(32);
const PROD_KEY_BASE64 = PROD_KEY.toString('base64');
const OLD_KEY = randomBytes(32);

describe('configuration', () => {
  it('starts on its defaults with no environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.embeddedPgDir).toBe('./data/postgres');
    expect(config.uploadsDir).toBe('./data/uploads');
    expect(config.isProduction).toBe(false);
    expect(config.adminMfaRequired).toBe(false);
    expect(config.CLIENT_SESSION_IDLE_MINUTES).toBe(14 * 24 * 60);
    expect(config.ADMIN_SESSION_ABSOLUTE_MINUTES).toBe(12 * 60);
  });

  it('turns on production behaviour with NODE_ENV=production', () => {
    const config = loadConfig({ NODE_ENV: 'production', MFA_ENCRYPTION_KEY: PROD_KEY_BASE64 });
    expect(config.isProduction).toBe(true);
    expect(config.adminMfaRequired).toBe(true);
  });

  it('reports one clear line per bad field', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_ALLOWED_CIDRS: 'not a range!' });
      expect.unreachable('bad configuration was accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const lines = (err as ConfigError).lines;
      expect(lines).toHaveLength(3);
      expect(lines.find((l) => l.startsWith('PORT:'))).toBeDefined();
      expect(lines.find((l) => l.startsWith('DATABASE_URL:'))).toContain('postgres://');
      expect(lines.find((l) => l.startsWith('ADMIN_ALLOWED_CIDRS:'))).toContain('CIDR');
    }
  });

  it('reads CIDR lists and treats empty values as unset', () => {
    const config = loadConfig({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8, 127.0.0.1', PORT: '' });
    expect(config.ADMIN_ALLOWED_CIDRS).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(config.PORT).toBe(3000);
  });

  describe('MFA_ENCRYPTION_KEY', () => {
    it('reads 32 bytes written as hex, base64 or base64url', () => {
      expect(loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY.toString('hex') }).mfaEncryptionKey.equals(PROD_KEY)).toBe(true);
      expect(loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY_BASE64 }).mfaEncryptionKey.equals(PROD_KEY)).toBe(true);
      expect(loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY.toString('base64url') }).mfaEncryptionKey.equals(PROD_KEY)).toBe(true);
      const config = loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY_BASE64 });
      expect(config.mfaEncryptionKeyIsDefault).toBe(false);
      // The raw variable is not kept beside the decoded key, so printing the configuration cannot show it.
      expect(JSON.stringify(config)).not.toContain(PROD_KEY_BASE64);
    });

    it('uses the labelled development key outside production when none is set', () => {
      for (const NODE_ENV of ['development', 'test']) {
        const config = loadConfig({ NODE_ENV });
        expect(config.mfaEncryptionKey.equals(DEVELOPMENT_MFA_ENCRYPTION_KEY)).toBe(true);
        expect(config.mfaEncryptionKeyIsDefault).toBe(true);
      }
      expect(DEVELOPMENT_MFA_ENCRYPTION_KEY.toString('utf8')).toMatch(/development-only-not-secret/);
    });

    it('refuses a malformed key with one line that does not repeat the value', () => {
      for (const bad of ['too-short', PROD_KEY.toString('hex').slice(2), randomBytes(16).toString('base64'), `${PROD_KEY_BASE64}!`]) {
        try {
          loadConfig({ MFA_ENCRYPTION_KEY: bad });
          expect.unreachable(`key ${bad} was accepted`);
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          const lines = (err as ConfigError).lines;
          expect(lines).toEqual(['MFA_ENCRYPTION_KEY: must be 32 random bytes written as 64 hex characters or as base64 (make one with: openssl rand -base64 32)']);
          expect((err as ConfigError).message).not.toContain(bad);
        }
      }
    });

    it('reads MFA_ENCRYPTION_KEY_PREVIOUS as one key or a comma-separated list, none by default', () => {
      const older = randomBytes(32);
      expect(loadConfig({}).mfaPreviousEncryptionKeys).toEqual([]);
      const one = loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY_BASE64, MFA_ENCRYPTION_KEY_PREVIOUS: OLD_KEY.toString('hex') });
      expect(one.mfaPreviousEncryptionKeys.map((k) => k.toString('hex'))).toEqual([OLD_KEY.toString('hex')]);
      const two = loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY_BASE64, MFA_ENCRYPTION_KEY_PREVIOUS: ` ${OLD_KEY.toString('base64')}, ${older.toString('base64url')} ` });
      expect(two.mfaPreviousEncryptionKeys.map((k) => k.toString('hex'))).toEqual([OLD_KEY.toString('hex'), older.toString('hex')]);
      expect(JSON.stringify(two)).not.toContain(OLD_KEY.toString('base64'));
    });

    it('refuses a malformed previous key with one line that does not repeat it', () => {
      const cases = [
        ['too-short', 'MFA_ENCRYPTION_KEY_PREVIOUS: must be 32 random bytes written as 64 hex characters or as base64 (make one with: openssl rand -base64 32) (several previous keys: separate them with commas)'],
        [`${OLD_KEY.toString('base64')},${randomBytes(16).toString('base64')}`, 'MFA_ENCRYPTION_KEY_PREVIOUS: key 2 of 2 must be 32 random bytes written as 64 hex characters or as base64 (make one with: openssl rand -base64 32)'],
        [`${OLD_KEY.toString('base64')} ${OLD_KEY.toString('hex')}`, 'MFA_ENCRYPTION_KEY_PREVIOUS: must be 32 random bytes written as 64 hex characters or as base64 (make one with: openssl rand -base64 32) (several previous keys: separate them with commas)'],
      ];
      for (const [bad, line] of cases) {
        try {
          loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY_BASE64, MFA_ENCRYPTION_KEY_PREVIOUS: bad });
          expect.unreachable(`previous key ${bad} was accepted`);
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          expect((err as ConfigError).lines).toEqual([line]);
          for (const part of bad.split(/[ ,]/)) expect((err as ConfigError).message).not.toContain(part);
        }
      }
    });

    it('refuses a previous key equal to the current one, in any notation, and the same key listed twice', () => {
      const sameAsCurrent = [PROD_KEY_BASE64, PROD_KEY.toString('hex'), `${OLD_KEY.toString('base64')},${PROD_KEY.toString('base64url')}`];
      for (const previous of sameAsCurrent) {
        try {
          loadConfig({ NODE_ENV: 'production', MFA_ENCRYPTION_KEY: PROD_KEY_BASE64, MFA_ENCRYPTION_KEY_PREVIOUS: previous });
          expect.unreachable('the current key was accepted as a previous one');
        } catch (err) {
          expect((err as ConfigError).lines).toEqual([
            'MFA_ENCRYPTION_KEY_PREVIOUS: must not contain MFA_ENCRYPTION_KEY itself: list only the keys it replaced (the current key is always tried)',
          ]);
          expect((err as ConfigError).message).not.toContain(PROD_KEY_BASE64);
        }
      }
      // Without MFA_ENCRYPTION_KEY the current key is the development key: it cannot be "previous" too.
      expect(() => loadConfig({ MFA_ENCRYPTION_KEY_PREVIOUS: DEVELOPMENT_MFA_ENCRYPTION_KEY.toString('base64') })).toThrow(/MFA_ENCRYPTION_KEY_PREVIOUS: must not contain/);
      expect(() => loadConfig({ MFA_ENCRYPTION_KEY: PROD_KEY_BASE64, MFA_ENCRYPTION_KEY_PREVIOUS: `${OLD_KEY.toString('base64')},${OLD_KEY.toString('hex')}` })).toThrow(
        /^Invalid configuration:\n {2}MFA_ENCRYPTION_KEY_PREVIOUS: lists the same key twice$/,
      );
    });

    it('is required in production, and the public development key is refused there', () => {
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/MFA_ENCRYPTION_KEY: is required in production/);
      expect(() => loadConfig({ NODE_ENV: 'production', MFA_ENCRYPTION_KEY: DEVELOPMENT_MFA_ENCRYPTION_KEY.toString('base64') })).toThrow(
        /MFA_ENCRYPTION_KEY: is the public development key/,
      );
    });
  });
});
