// Start-up rows of `npm run bench`: cold start of the production server on existing data, and the
// idle memory of its Node process, beside a bare Fastify process started the same way (its own
// process, warm-up start first, interleaved rounds, medians).
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/helpers/free-port.ts';
import type { BenchRow } from './run.ts';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
// Issue 38 reads the idle memory 10 s after the start.
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);

/** The command `npm start` runs after the build; BENCH_SERVER_CMD overrides it (for before/after figures). */
export function serverCommand(): string[] {
  const given = process.env.BENCH_SERVER_CMD;
  return given ? given.split(' ') : [process.execPath, path.join(process.env.BENCH_BUILD_DIR ?? 'build-bench', 'app', 'main.js')];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

export async function waitReady(base: string, limitMs = 120_000) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${base} did not become ready`);
}

/** Starts a command that serves /api/health on PORT; answers the time to the first 200 and the idle RSS. */
async function timeStart(cmd: string[], env: Record<string, string>) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(cmd[0], cmd.slice(1), { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await waitReady(`http://127.0.0.1:${port}`);
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { ms, rss: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ success: true, status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

/** The environment of a production start on its own data folder, with the memory settings of `npm run serve`. */
export async function productionEnv(dataDir: string): Promise<Record<string, string>> {
  return {
    NODE_ENV: 'production',
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    // As `npm run serve` starts it (decisions 182 and 178).
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? 'glibc.malloc.mmap_threshold=1048576',
    NODE_OPTIONS: `--max-old-space-size=1024 --max-semi-space-size=4 ${process.env.NODE_OPTIONS ?? ''}`,
  };
}

export default async function startupRows(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  chmodSync(dataDir, 0o755);
  const bareFile = path.join(process.cwd(), 'node_modules', '.bench-bare-server.mjs');
  writeFileSync(bareFile, BARE_SERVER);
  const env = { ...(await productionEnv(dataDir)), BUILD_DIR: process.env.BENCH_BUILD_DIR ?? 'build-bench' };
  const ours: { ms: number; rss: number }[] = [];
  const bare: { ms: number; rss: number }[] = [];
  try {
    // Warm-up: the first start creates the database and applies the migrations ("existing data" after).
    await timeStart(serverCommand(), env);
    await timeStart([process.execPath, bareFile], {});
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await timeStart(serverCommand(), env));
      bare.push(await timeStart([process.execPath, bareFile], {}));
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(bareFile, { force: true });
  }
  const oursMs = median(ours.map((o) => o.ms));
  const bareMs = median(bare.map((o) => o.ms));
  const oursRss = median(ours.map((o) => o.rss));
  const bareRss = median(bare.map((o) => o.rss));
  return [
    { name: `cold start, existing data (s, median of ${ROUNDS}; goal < 1)`, value: (oursMs / 1000).toFixed(2), baseline: (bareMs / 1000).toFixed(2), ratio: (oursMs / bareMs).toFixed(1) },
    { name: `idle RSS after ${IDLE_MS / 1000} s (MB, median of ${ROUNDS}; goal < 120)`, value: String(oursRss), baseline: String(bareRss), ratio: (oursRss / bareRss).toFixed(1) },
  ];
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  console.table(await startupRows());
}
