import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
    const config = loadConfig({ NODE_ENV: 'production' });
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
});
