import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { MIGRATIONS_DIR, runMigrations } from '../db/migrate.ts';
import type { FileStorage } from '../storage/storage.ts';
import { BackupFormatError, FRAME_BYTES, frameWriter, readFrames, type FrameHeader } from './archive.ts';

/** A refusal the command line prints as it is (no stack): a non-empty target, a backup of newer code. */
export class BackupRefusal extends Error {}

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

async function journal(): Promise<{ entries: JournalEntry[] } & Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'));
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables of the public schema, each after the tables its foreign keys point at. */
async function tablesInDependencyOrder(client: pg.Client): Promise<Array<{ name: string; columns: string[] }>> {
  const tables = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
  const edges = await client.query<{ child: number; parent: number }>(
    `SELECT conrelid::int AS child, confrelid::int AS parent FROM pg_constraint
     WHERE contype = 'f' AND conrelid <> confrelid AND connamespace = 'public'::regnamespace`,
  );
  const parents = new Map<number, Set<number>>(tables.rows.map((t) => [t.oid, new Set<number>()]));
  for (const e of edges.rows) parents.get(e.child)?.add(e.parent);
  const ordered: typeof tables.rows = [];
  const done = new Set<number>();
  while (ordered.length < tables.rows.length) {
    const ready = tables.rows.filter((t) => !done.has(t.oid) && [...parents.get(t.oid)!].every((p) => done.has(p) || !parents.has(p)));
    if (!ready.length) throw new Error('The tables\' foreign keys form a cycle; this backup cannot order them.');
    for (const t of ready) {
      done.add(t.oid);
      ordered.push(t);
    }
  }
  const out = [];
  for (const t of ordered) {
    const cols = await client.query<{ attname: string }>(
      `SELECT attname FROM pg_attribute WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [t.oid],
    );
    out.push({ name: t.name, columns: cols.rows.map((c) => c.attname) });
  }
  return out;
}

/** The schema version of a database: how many of the committed migrations it has, and the last one's tag. */
async function schemaVersion(client: pg.Client) {
  const applied = await client.query<{ created_at: string }>('SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at');
  const entries = (await journal()).entries;
  const lastWhen = Number(applied.rows.at(-1)?.created_at ?? 0);
  const last = entries.find((e) => e.when === lastWhen);
  if (!last) throw new Error('The database has a migration this code does not know; back it up with the code that migrated it.');
  return { migrations: applied.rows.length, lastTag: last.tag, lastWhen };
}

export interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  schema: string;
}

/**
 * Writes one backup file: every table of the database read inside one REPEATABLE READ transaction
 * (one snapshot, however long the copy takes, while the server keeps running), then every stored
 * file. The file is written under a temporary name and renamed when complete.
 */
export async function createBackup(options: { databaseUrl: string; storage: FileStorage; file: string; now?: Date }): Promise<BackupSummary> {
  const { storage } = options;
  if (!storage.list) throw new Error('This file storage cannot list its files, so it cannot be backed up.');
  const temp = `${options.file}.${randomBytes(6).toString('hex')}.part`;
  const gzip = createGzip({ level: 6 });
  const fileOut = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
  const piped = pipeline(gzip, fileOut);
  const w = frameWriter(gzip);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  const summary = { tables: 0, rows: 0, files: 0, fileBytes: 0 };
  let schemaTag = '';
  try {
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const schema = await schemaVersion(client);
    schemaTag = schema.lastTag;
    const tables = await tablesInDependencyOrder(client);
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
    await w.magic();
    await w.frame({
      type: 'manifest',
      format: 1,
      createdAt: (options.now ?? new Date()).toISOString(),
      schema,
      source: 'postgresql',
      serverVersion: version,
      tables: tables.map((t) => t.name),
    });
    for (const table of tables) {
      await w.frame({ type: 'table', name: table.name, columns: table.columns });
      const hash = createHash('sha256');
      const stream = client.query(copyTo(`COPY ${ident(table.name)} (${table.columns.map(ident).join(', ')}) TO STDOUT`));
      for await (const part of chunked(stream)) {
        hash.update(part);
        await w.frame({ type: 'table-data', name: table.name, size: part.length }, part);
      }
      await w.frame({ type: 'table-end', name: table.name, rows: stream.rowCount, sha256: hash.digest('hex') });
      summary.tables++;
      summary.rows += stream.rowCount;
    }
    const sequences = await client.query<{ name: string; value: string; is_called: boolean }>(
      `SELECT sequencename AS name, COALESCE(last_value, 1)::text AS value, last_value IS NOT NULL AS is_called FROM pg_sequences WHERE schemaname = 'public'`,
    );
    for (const s of sequences.rows) await w.frame({ type: 'sequence', name: s.name, value: s.value, isCalled: s.is_called });
    await client.query('COMMIT');
    // The files after the snapshot: an upload finished since then is an extra file nothing refers
    // to (harmless); see decision 165 for the one case this order does not cover.
    const keys: string[] = [];
    for await (const key of storage.list()) keys.push(key);
    keys.sort();
    for (const key of keys) {
      let body: Readable;
      try {
        body = await storage.get(key);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // deleted since it was listed
        throw err;
      }
      await w.frame({ type: 'file', key });
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const part of chunked(body)) {
        hash.update(part);
        bytes += part.length;
        await w.frame({ type: 'file-data', key, size: part.length }, part);
      }
      await w.frame({ type: 'file-end', key, bytes, sha256: hash.digest('hex') });
      summary.files++;
      summary.fileBytes += bytes;
    }
    await w.frame({ type: 'end', ...summary });
    gzip.end();
    await piped;
    await rename(temp, options.file);
    return { file: options.file, schema: schemaTag, ...summary };
  } catch (err) {
    gzip.destroy();
    await piped.catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Re-cuts a stream into pieces of at most FRAME_BYTES. */
async function* chunked(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (buf.length) {
      const room = FRAME_BYTES - length;
      parts.push(buf.subarray(0, room));
      length += Math.min(room, buf.length);
      buf = buf.subarray(room);
      if (length === FRAME_BYTES) {
        yield Buffer.concat(parts);
        parts = [];
        length = 0;
      }
    }
  }
  if (length) yield Buffer.concat(parts);
}

/** Whether any table of the public schema holds a row. */
async function databaseHasRows(client: pg.Client): Promise<string | null> {
  const tables = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
  );
  for (const t of tables.rows) {
    const r = await client.query(`SELECT 1 FROM ${ident(t.name)} LIMIT 1`);
    if (r.rowCount) return t.name;
  }
  return null;
}

async function firstKey(storage: FileStorage): Promise<string | null> {
  for await (const key of storage.list!()) return key;
  return null;
}

/** A copy of the migrations folder whose journal stops at the backup's last migration. */
async function migrationsUpTo(lastWhen: number): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-restore-migrations-'));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  const j = await journal();
  j.entries = j.entries.filter((e) => e.when <= lastWhen);
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(j, null, 2));
  return dir;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  schema: string;
  createdAt: string;
}

/**
 * Restores a backup into an empty database and an empty file storage; with `force`, into ones that
 * hold data, which is deleted first. The schema is built by the migrations up to the backup's own
 * version, the rows go in with COPY in one transaction that commits only after every file is written
 * and every checksum matched, and then the newer migrations of this code (if any) upgrade it.
 */
export async function restoreBackup(options: { databaseUrl: string; storage: FileStorage; file: string; force?: boolean }): Promise<RestoreSummary> {
  const { storage } = options;
  if (!storage.list) throw new Error('This file storage cannot list its files, so it cannot be restored into safely.');
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let migrationsDir: string | undefined;
  // A COPY under way when something fails must be failed itself, or the ROLLBACK would wait behind it.
  let activeCopy: { copy: ReturnType<typeof copyFrom>; done: Promise<void> } | null = null;
  const input = createReadStream(options.file);
  const gunzip = createGunzip();
  input.pipe(gunzip);
  input.on('error', (err) => gunzip.destroy(err));
  try {
    const full = await databaseHasRows(client);
    const someFile = await firstKey(storage);
    if ((full || someFile) && !options.force) {
      throw new BackupRefusal(
        `Refusing to restore: the target is not empty (${full ? `the database has rows in table "${full}"` : `the file storage holds "${someFile}"`}). ` +
          'Restore into a fresh data directory or an empty database and bucket, or add --force to delete what is there first.',
      );
    }
    const frames = readFrames(gunzip);
    const first = await frames.next();
    if (first.done || first.value.header.type !== 'manifest') throw new BackupFormatError('The backup file has no manifest.');
    const manifest = first.value.header;
    const known = (await journal()).entries.find((e) => e.when === manifest.schema.lastWhen && e.tag === manifest.schema.lastTag);
    if (!known) {
      throw new BackupRefusal(
        `This backup is of schema version ${manifest.schema.lastTag}, which this code does not know (it is newer). Restore it with the version of the code that wrote it.`,
      );
    }

    // A clean schema: the target had no rows (or --force said they may go).
    await client.query('SET client_min_messages TO warning');
    await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE');
    await client.query('DROP SCHEMA IF EXISTS public CASCADE');
    await client.query('CREATE SCHEMA public');
    if (someFile) for await (const key of storage.list()) await storage.delete(key);
    migrationsDir = await migrationsUpTo(manifest.schema.lastWhen);
    await runMigrationsFrom(options.databaseUrl, migrationsDir);

    const summary = { tables: 0, rows: 0, files: 0, fileBytes: 0 };
    await client.query('BEGIN');
    // Issued invoices and credit notes are copied before their lines; their triggers let lines in
    // only in this transaction (migration 0033, decision 298).
    await client.query(`SET LOCAL portal.restoring = 'on'`);
    let table: { name: string; copy: ReturnType<typeof copyFrom>; done: Promise<void>; hash: ReturnType<typeof createHash> } | null = null;
    let file: { key: string; parts: Buffer[]; hash: ReturnType<typeof createHash>; bytes: number } | null = null;
    let ended = false;
    for await (const { header, payload } of frames) {
      const h = header as FrameHeader;
      switch (h.type) {
        case 'table': {
          if (!manifest.tables.includes(h.name)) throw new BackupFormatError(`The backup has data of an unlisted table ${h.name}.`);
          const copy = client.query(copyFrom(`COPY ${ident(h.name)} (${h.columns.map(ident).join(', ')}) FROM STDIN`));
          table = { name: h.name, copy, done: finished(copy), hash: createHash('sha256') };
          activeCopy = table;
          break;
        }
        case 'table-data':
          if (!table || table.name !== h.name) throw new BackupFormatError('The backup file has table data out of place.');
          table.hash.update(payload);
          if (!table.copy.write(payload)) await new Promise((r) => table!.copy.once('drain', r));
          break;
        case 'table-end': {
          if (!table || table.name !== h.name) throw new BackupFormatError('The backup file has table data out of place.');
          table.copy.end();
          await table.done;
          if (table.hash.digest('hex') !== h.sha256 || table.copy.rowCount !== h.rows) {
            throw new BackupFormatError(`The data of table ${h.name} in the backup is damaged (checksum or row count differs).`);
          }
          summary.tables++;
          summary.rows += h.rows;
          table = null;
          activeCopy = null;
          break;
        }
        case 'sequence':
          await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [ident(h.name), h.value, h.isCalled]);
          break;
        case 'file':
          file = { key: h.key, parts: [], hash: createHash('sha256'), bytes: 0 };
          break;
        case 'file-data':
          if (!file || file.key !== h.key) throw new BackupFormatError('The backup file has file data out of place.');
          file.parts.push(payload);
          file.hash.update(payload);
          file.bytes += payload.length;
          break;
        case 'file-end': {
          if (!file || file.key !== h.key) throw new BackupFormatError('The backup file has file data out of place.');
          if (file.hash.digest('hex') !== h.sha256 || file.bytes !== h.bytes) throw new BackupFormatError(`The file ${h.key} in the backup is damaged.`);
          // Whole files go in as one buffer: the storages' put of a Buffer is a single write (S3 PUT).
          await storage.put(h.key, Buffer.concat(file.parts));
          summary.files++;
          summary.fileBytes += file.bytes;
          file = null;
          break;
        }
        case 'end':
          if (h.tables !== summary.tables || h.rows !== summary.rows || h.files !== summary.files || h.fileBytes !== summary.fileBytes) {
            throw new BackupFormatError('The backup file\'s closing record does not match what it held: it is damaged.');
          }
          ended = true;
          break;
        default:
          throw new BackupFormatError('The backup file has a record of an unknown kind.');
      }
    }
    if (!ended) throw new BackupFormatError('The backup file ends before its closing record: it is truncated.');
    await client.query('COMMIT');
    // Newer migrations of this code bring the restored data up to date.
    await runMigrations(options.databaseUrl);
    return { ...summary, schema: manifest.schema.lastTag, createdAt: manifest.createdAt };
  } catch (err) {
    if (activeCopy) {
      activeCopy.copy.destroy(err as Error);
      await activeCopy.done.catch(() => undefined);
    }
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    input.destroy();
    await client.end().catch(() => undefined);
    if (migrationsDir) await rm(migrationsDir, { recursive: true, force: true });
  }
}

async function runMigrationsFrom(url: string, folder: string) {
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('SET client_min_messages TO warning');
    await migrate(drizzle(c), { migrationsFolder: folder });
  } finally {
    await c.end();
  }
}
