import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from './schema/users.ts';
import { DEMO_ADMIN, seedDatabase } from './seed.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';
import { SYSTEM_ACTOR } from '../modules/audit/audit.ts';
import { createAdminAccount } from '../modules/auth/admin-accounts.service.ts';
import { confirmMfaEnrolment, isMfaEnabled, remainingRecoveryCodes, startMfaEnrolment } from '../modules/auth/mfa.service.ts';
import { createSession, resolveSession } from '../modules/auth/sessions.service.ts';
import { base32Decode, totp } from '../modules/auth/totp.ts';

const run = promisify(execFile);
const ORIGIN = 'http://localhost:3000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

function cli(script: string, args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'warn', ...env },
    timeout: 60_000,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('seed', () => {
  it('creates a demo admin and a demo client that can sign in, and refreshes them when run again', async () => {
    const first = await seedDatabase(t.app);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, payload: { username: first.client.login, password: first.client.password } });
    expect(login.statusCode).toBe(200);
    const admin = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: first.admin.login, password: first.admin.password } });
    expect(admin.statusCode).toBe(200);

    const second = await seedDatabase(t.app);
    expect(second.admin.id).toBe(first.admin.id);
    expect(second.client.password).not.toBe(first.client.password);
    expect(await t.database.db.select().from(users).where(eq(users.email, DEMO_ADMIN.email))).toHaveLength(1);
  });

  it('refuses to run in production, as a function and as npm run db:seed', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production' });
    try {
      await expect(seedDatabase(prod.app)).rejects.toThrow(/refuses to run with NODE_ENV=production/);
    } finally {
      await prod.close();
    }
    const res = await cli('server/db/seed-cli.ts', [], { NODE_ENV: 'production' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/refused when NODE_ENV=production/);
  }, 120_000);

  it('prints the demo credentials from the command line', async () => {
    const res = await cli('server/db/seed-cli.ts', [], { NODE_ENV: 'development' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/email admin@demo\.example {3}password demo-\S+/);
    expect(res.stdout).toMatch(/username demo\.client {3}password demo-\S+/);
  }, 120_000);
});

describe('admin:create', () => {
  it('creates an admin from the command line with the password from ADMIN_PASSWORD', async () => {
    const res = await cli('server/modules/auth/admin-create-cli.ts', ['--email', 'First.Admin@Example.test', '--name', 'First Admin'], {
      NODE_ENV: 'development',
      ADMIN_PASSWORD: 'a long admin passphrase',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Admin created: First Admin <first.admin@example.test>');
    expect(res.stdout).not.toContain('a long admin passphrase');
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: 'first.admin@example.test', password: 'a long admin passphrase' } });
    expect(login.statusCode).toBe(200);
    // Decision 272: the account made from the command line is an owner.
    const [created] = await t.database.db.select({ staffRole: users.staffRole }).from(users).where(eq(users.email, 'first.admin@example.test'));
    expect(created.staffRole).toBe('owner');

    const again = await cli('server/modules/auth/admin-create-cli.ts', ['--email', 'first.admin@example.test', '--name', 'Again'], { ADMIN_PASSWORD: 'a long admin passphrase' });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  }, 120_000);

  it('applies the password rules', async () => {
    await expect(createAdminAccount(t.app, { email: 'weak@example.test', name: 'Weak', password: 'short' })).rejects.toThrow(/at least 12/);
    await expect(createAdminAccount(t.app, { email: 'weak@example.test', name: 'Weak', password: 'password1234' })).rejects.toThrow(/too common/);
    await expect(createAdminAccount(t.app, { email: 'not-an-email', name: 'X', password: 'a long admin passphrase' })).rejects.toThrow(/valid e-mail/);
  });
});

describe('admin:reset-mfa', () => {
  it('turns off a lost second factor and ends every session of that admin, from the command line', async () => {
    const admin = await createAdminAccount(t.app, { email: 'lost.phone@example.test', name: 'Lost Phone', password: 'a long admin passphrase' });
    const { secret } = await startMfaEnrolment(t.app, admin.id);
    const codes = await confirmMfaEnrolment(t.app, admin.id, totp(base32Decode(secret), t.clock.now().getTime()), { replacing: false }, SYSTEM_ACTOR);
    expect(codes).toHaveLength(10);
    const session = await createSession(t.app, { userId: admin.id, role: 'admin' });
    const other = await createAdminAccount(t.app, { email: 'keeps.phone@example.test', name: 'Keeps Phone', password: 'a long admin passphrase' });
    const otherSession = await createSession(t.app, { userId: other.id, role: 'admin' });

    const res = await cli('server/modules/auth/admin-reset-mfa-cli.ts', ['--email', 'Lost.Phone@Example.test'], { NODE_ENV: 'development' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Two-step verification turned off for Lost Phone <lost.phone@example.test>');
    expect(await isMfaEnabled(t.app, admin.id)).toBe(false);
    expect(await remainingRecoveryCodes(t.app, admin.id)).toBe(0);
    expect(await resolveSession(t.app, session.token)).toBeNull();
    // Nobody else is touched.
    expect(await resolveSession(t.app, otherSession.token)).not.toBeNull();
    // The password still works; the account now signs in without a second factor (not required here).
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: 'lost.phone@example.test', password: 'a long admin passphrase' } });
    expect(login.statusCode).toBe(200);
  }, 120_000);

  it('refuses an address that is not an admin\'s, changing nothing', async () => {
    const [client] = await t.database.db
      .insert(users)
      .values({ role: 'client', name: 'Client', email: 'a.client@example.test', username: 'a.client', createdAt: t.clock.now() })
      .returning({ id: users.id });
    const clientSession = await createSession(t.app, { userId: client.id, role: 'client' });
    for (const email of ['a.client@example.test', 'nobody@example.test']) {
      const res = await cli('server/modules/auth/admin-reset-mfa-cli.ts', ['--email', email], { NODE_ENV: 'development' });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`No admin account has the e-mail ${email}.`);
    }
    expect(await resolveSession(t.app, clientSession.token)).not.toBeNull();
  }, 120_000);
});
