import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { inject } from 'vitest';
import { MIGRATIONS_DIR, runMigrations } from '../../server/db/migrate.ts';

async function asAdmin(query: string) {
  const c = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await c.connect();
  await c.query(query);
  await c.end();
}

/** A migrated test database: `db` is connected to it; `rows` gives each row as its values joined by spaces. */
export interface MigratedDatabase {
  db: pg.Client;
  /** The migrated database's address, for an app on it. */
  url: string;
  rows: (query: string) => Promise<string[]>;
  close: () => Promise<void>;
}

/**
 * A fresh database at the schema just before `migration` (that migration and every later one left
 * out), filled by `fill`, then brought up to date by the real migrations: a migration test with data.
 */
export async function migratedWithData(migration: string, name: string, fill: (db: pg.Client) => Promise<void>): Promise<MigratedDatabase> {
  const database = `t_${inject('pgTemplateDb').split('_').pop()}_${name}`;
  const url = Object.assign(new URL(inject('pgAdminUrl')), { pathname: `/${database}` }).toString();
  await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await asAdmin(`CREATE DATABASE ${database}`);
  const folder = mkdtempSync(path.join(os.tmpdir(), `before-${migration}-`));
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string; idx: number }[] };
  const cut = journal.entries.find((e) => e.tag === migration);
  if (!cut) throw new Error(`No migration ${migration}`);
  for (const e of journal.entries.filter((x) => x.idx >= cut.idx)) rmSync(path.join(folder, `${e.tag}.sql`));
  journal.entries = journal.entries.filter((e) => e.idx < cut.idx);
  writeFileSync(journalFile, JSON.stringify(journal));
  const before = new pg.Client({ connectionString: url });
  await before.connect();
  await before.query('SET client_min_messages TO warning');
  await migrate(drizzle(before), { migrationsFolder: folder });
  rmSync(folder, { recursive: true, force: true });
  await fill(before);
  await before.end();
  await runMigrations(url);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  return {
    db,
    url,
    rows: async (query) => (await db.query(query)).rows.map((r) => Object.values(r).map(String).join(' ')),
    close: async () => {
      await db.end();
      await asAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}
