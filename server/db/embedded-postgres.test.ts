import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.ts';
import { freePort } from '../../tests/helpers/free-port.ts';

const log = { info: () => undefined, warn: () => undefined, debug: () => undefined };
let root: string;
let dataDir: string;
const handles: EmbeddedPostgresHandle[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'supervisor-'));
  chmodSync(root, 0o755);
  dataDir = path.join(root, 'postgres');
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const h of handles.splice(0)) await h.stop();
  // A postgres orphaned by a killed holder is stopped by the test that made it; make sure anyway.
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts the holder script in another process and waits for its first line. */
function startHolder(port: number): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/hold-embedded-pg.ts', dataDir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, line: out.split('\n')[0] });
    });
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}: ${out}`)));
  });
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Each test starts (and some restart) a PostgreSQL server: slow on a loaded machine.
describe('embedded PostgreSQL supervisor', { timeout: 90_000 }, () => {
  it('initialises a fresh data directory, serves queries and stops cleanly', async () => {
    const handle = await startEmbeddedPostgres({ dataDir, port: await freePort(), log });
    handles.push(handle);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    const { rows } = await query(handle.url, 'SELECT current_database() AS db');
    expect(rows[0].db).toBe('app');
    await handle.stop();
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });

  it('restarts on existing data and keeps what was written', async () => {
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, log });
    await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
    await first.stop();
    const second = await startEmbeddedPostgres({ dataDir, port, log });
    handles.push(second);
    const { rows } = await query(second.url, 'SELECT v FROM kept');
    expect(rows).toEqual([{ v: 'still here' }]);
  });

  it('comes back after its server was killed, stopping the PostgreSQL it left running', async () => {
    const port = await freePort();
    const { child, line } = await startHolder(port);
    expect(line).toMatch(/^READY /);
    const url = line.slice('READY '.length);
    await query(url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before the crash')");
    const orphanPid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(isAlive(orphanPid)).toBe(true); // the kill left PostgreSQL running, holding the directory

    const handle = await startEmbeddedPostgres({ dataDir, port, log });
    handles.push(handle);
    expect(isAlive(orphanPid)).toBe(false);
    const { rows } = await query(handle.url, 'SELECT v FROM kept');
    expect(rows).toEqual([{ v: 'before the crash' }]);
  });

  it('refuses a second server on the same data directory with a clear message', async () => {
    const port = await freePort();
    const { child, line } = await startHolder(port);
    expect(line).toMatch(/^READY /);
    const url = line.slice('READY '.length);
    const started = Date.now();
    const attempt = startEmbeddedPostgres({ dataDir, port: await freePort(), log });
    await expect(attempt).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(attempt).rejects.toThrow(/already used by another server \(process \d+\)/);
    expect(Date.now() - started).toBeLessThan(5000);
    // The first server is untouched.
    const { rows } = await query(url, 'SELECT 1 AS ok');
    expect(rows[0].ok).toBe(1);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
});
