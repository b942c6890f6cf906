import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { args, PORT, PG_PORT, BASE, SNAPSHOT_DIR, ROOT, log } from './options.ts';

// ---- the server, the README way -------------------------------------------------------------

export const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-soak-'));
// Run as root, the embedded PostgreSQL runs as the postgres user, which must reach its folder.
chmodSync(dataDir, 0o755);
const serverEnv = {
  ...process.env,
  NODE_ENV: 'production',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  PUBLIC_URL: BASE,
  DATA_DIR: dataDir,
  EMBEDDED_PG_PORT: String(PG_PORT),
  MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  ADMIN_MFA_REQUIRED: 'false',
  // Visitors come from many addresses through a proxy on this machine (the form limits are per address).
  TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
  LOG_LEVEL: 'warn',
  NODE_OPTIONS: [
    process.env.NODE_OPTIONS ?? '',
    args['node-options'],
    SNAPSHOT_DIR ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOT_DIR}` : '',
  ].filter(Boolean).join(' '),
  ...Object.fromEntries(
    args['server-env']!.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--server-env wants NAME=VALUE, got ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  ),
};
// Read through the live binding by the run; only startServer() replaces it.
export let server: ChildProcess | null = null;
let serverOutput = '';

export function startServer() {
  // Its own process group, as a service manager runs it; a crash round kills the whole group.
  const child = spawn('npm', ['run', '--silent', 'serve'], { cwd: ROOT, env: serverEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (serverOutput = (serverOutput + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (serverOutput = (serverOutput + d).slice(-20_000)));
  server = child;
}

export async function waitReady(timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) during start-up:\n${serverOutput.slice(-3000)}`);
    try {
      const res = await fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not become ready in ${timeoutMs / 1000} s:\n${serverOutput.slice(-3000)}`);
}

/**
 * The node process serving (inside npm's process group), for its memory: the one running the
 * compiled server (`build/app/main.js`, decision 157), not npm or the shell it runs it through.
 */
function serverPid(): number | null {
  if (!server?.pid) return null;
  try {
    const out = execFileSync('pgrep', ['-g', String(server.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
    return (
      out.find((p) => {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'node' && argv.some((a) => a.endsWith(path.join('app', 'main.js')));
      }) ?? null
    );
  } catch {
    return null;
  }
}
export function rssMb(): number | null {
  const pid = serverPid();
  if (!pid) return null;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
}

export interface MemorySample {
  s: number;
  rss: number;
  heapUsed: number;
  /** V8's heap as committed (young and old generations, code, large objects). */
  heapTotal: number;
  /** Memory V8 knows of outside its heap: array buffers (Buffers) and what addons report. */
  external: number;
  /** The rest of the RSS: malloc arenas of native code (argon2, libvips, zlib), code, stacks. */
  native: number;
  /** The machine's 1-minute load average at that moment. */
  load: number;
  /** CPU seconds the server process has used (user and system), in seconds, not MB. */
  cpu: number;
}
const MB = 1024 * 1024;
export const memorySamples: MemorySample[] = [];

/** The server's own view of its memory (prom-client's default metrics, from this machine's address). */
export async function memorySample(since: number): Promise<MemorySample | null> {
  try {
    const text = await (await fetch(`${BASE}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / MB;
    const rss = value('process_resident_memory_bytes');
    const heapTotal = value('nodejs_heap_size_total_bytes');
    const external = value('nodejs_external_memory_bytes');
    return {
      s: Math.round((Date.now() - since) / 1000),
      rss,
      heapUsed: value('nodejs_heap_size_used_bytes'),
      heapTotal,
      external,
      native: rss - heapTotal - external,
      load: os.loadavg()[0],
      cpu: value('process_cpu_seconds_total') * MB,
    };
  } catch {
    return null;
  }
}

/** Asks the server for a heap snapshot (node writes it after a full GC) and waits until it is written. */
export async function heapSnapshot(label: string) {
  const pid = serverPid();
  if (!SNAPSHOT_DIR || !pid) return;
  const before = new Set(readdirSync(SNAPSHOT_DIR));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    const file = readdirSync(SNAPSHOT_DIR).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
    // The server answers again once the snapshot is written (writing it blocks its event loop).
    if (file && (await fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(30_000) }).then((r) => r.ok, () => false))) {
      log(`heap snapshot ${label}: ${path.join(SNAPSHOT_DIR, file)}`);
      return;
    }
  }
  log(`heap snapshot ${label}: not written within 120 s`);
}

export async function stopServer() {
  if (!server?.pid) return;
  const pid = server.pid;
  const exited = new Promise((r) => server!.once('exit', r));
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
}
