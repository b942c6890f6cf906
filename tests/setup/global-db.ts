import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../server/db/embedded-postgres.ts';
import { runMigrations } from '../../server/db/migrate.ts';
import { freePort } from '../helpers/free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplateDb: string;
  }
}

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * One PostgreSQL for the whole run (the embedded one, or TEST_DATABASE_URL such as Debian's
 * PostgreSQL 15 in CI), with a migrated template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  const quiet = { info: () => undefined, warn: (m: string) => console.warn(m), debug: () => undefined };
  let embedded: EmbeddedPostgresHandle | undefined;
  let tmpDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tmpDir = mkdtempSync(path.join(os.tmpdir(), 'portal-test-pg-'));
    chmodSync(tmpDir, 0o755); // PostgreSQL runs as its own user when we are root
    embedded = await startEmbeddedPostgres({ dataDir: path.join(tmpDir, 'pg'), port: await freePort(), log: quiet });
    adminUrl = embedded.adminUrl;
  }
  const template = `portal_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${template}`);
  await runMigrations(withDatabase(adminUrl, template));
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplateDb', template);

  return async () => {
    // Drop what this run created, so a shared server (CI's PostgreSQL 15) stays clean.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [template, `t_${process.pid}_%`],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  };
}
