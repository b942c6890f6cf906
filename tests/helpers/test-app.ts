import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig, type AppConfig } from '../../server/config.ts';
import { createDatabase, type Database } from '../../server/db/client.ts';
import { users, type UserRole } from '../../server/db/schema/users.ts';
import type { MemberRole, StaffRole } from '../../common/permissions.ts';
import { SESSION_COOKIE } from '../../server/plugins/access.ts';
import { createSession } from '../../server/modules/auth/sessions.service.ts';
import { createFakeClock, type FakeClock } from './fake-clock.ts';
import type { FileStorage } from '../../server/storage/storage.ts';

export interface TestApp {
  app: App;
  database: Database;
  clock: FakeClock;
  config: AppConfig;
  databaseUrl: string;
  /** The folder of the local file storage of this app (empty at start). */
  uploadsDir: string;
  close(): Promise<void>;
}

/** The TOTP-secret encryption key of test apps (base64 of 32 bytes; tests only). */
export const TEST_MFA_ENCRYPTION_KEY = Buffer.from('test-only-mfa-key-0123456789abcd', 'utf8').toString('base64');

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates a fresh database for this test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('pgTemplateDb');
  const name = `t_${template.split('_').pop()}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (err) {
      // Two files cloning the template at the same instant: PostgreSQL asks one to wait.
      if ((err as { code?: string }).code !== '55006' || attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The application on its own fresh database, with a fake clock and quiet logs. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    /** The file storage to use instead of the local one, given this app's uploads folder (e.g. one that fails on purpose). */
    storage?: (uploadsDir: string) => FileStorage;
    /** With the web plugin, over the build process.env.BUILD_DIR names (the plugin reads it when first imported). */
    web?: boolean;
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'portal-uploads-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.url,
    UPLOADS_DIR: uploadsDir,
    // A key of its own (not the development default), so production-mode test apps start too.
    MFA_ENCRYPTION_KEY: TEST_MFA_ENCRYPTION_KEY,
    ...env,
  });
  const database = createDatabase(testDb.url, { max: 4 });
  const clock = createFakeClock();
  const app = await buildApp({ config, database, logger: false, clock, storage: options.storage?.(uploadsDir), web: options.web });
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    databaseUrl: testDb.url,
    uploadsDir,
    async close() {
      await app.close();
      await database.close();
      await testDb.drop();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

// A cheap hash for test users: tests sign in through sessions, not through argon2's slow path.
let cachedHash: Promise<string> | undefined;
export const TEST_PASSWORD = 'correct horse battery staple';
const testPasswordHash = () =>
  (cachedHash ??= argon2.hash(TEST_PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 }));

/** Inserts a user with the test password. */
export async function createUser(
  t: TestApp,
  input: { role: UserRole; name?: string; email?: string; username?: string; staffRole?: StaffRole; organisationId?: string; memberRole?: MemberRole },
): Promise<{ id: string; name: string; email: string; username: string | null }> {
  const suffix = randomBytes(4).toString('hex');
  const [row] = await t.database.db
    .insert(users)
    .values({
      role: input.role,
      // Staff are owners unless a test asks for another role (decision 272).
      staffRole: input.role === 'admin' ? (input.staffRole ?? 'owner') : null,
      // A client without an organisation founds its own and is its admin (migration 0025's trigger).
      organisationId: input.organisationId,
      memberRole: input.memberRole,
      name: input.name ?? `${input.role} ${suffix}`,
      email: input.email ?? `${input.role}-${suffix}@example.test`,
      username: input.role === 'client' ? (input.username ?? `client-${suffix}`) : (input.username ?? null),
      passwordHash: await testPasswordHash(),
      // The app's clock, not the database's: lists ordered newest first must not depend on how
      // the wall clock compares with a test's fake one.
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning({ id: users.id, name: users.name, email: users.email, username: users.username });
  return row;
}

/** Signs a user in directly (a session row) and returns the headers that carry it. */
export async function signIn(t: TestApp, user: { id: string }, role: UserRole): Promise<{ cookie: string; token: string }> {
  const { token } = await createSession(t.app, { userId: user.id, role });
  return { cookie: `${SESSION_COOKIE}=${token}`, token };
}

/**
 * An app with the web plugin over the build in `buildDir` (process.env.BUILD_DIR must already name
 * it: the web plugin reads it when first imported), on a fresh test database. `close` also removes
 * the build directory.
 */
export async function startWebTestApp(buildDir: string): Promise<{ app: App; close(): Promise<void> }> {
  const testDb = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: testDb.url, UPLOADS_DIR: path.join(buildDir, 'uploads') });
  const database = createDatabase(testDb.url, { max: 2 });
  const app = await buildApp({ config, database, logger: false, clock: createFakeClock(), web: true });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
      await testDb.drop();
      rmSync(buildDir, { recursive: true, force: true });
    },
  };
}
