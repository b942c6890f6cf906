/**
 * node --import tsx bench/idle-memory.ts BUILD_DIR... [--rounds 3] [--idle 5]
 *
 * Idle memory of the production server, compared between builds (`BUILD_DIR=x npm run build` each):
 * every build is started the `npm run serve` way (`node <build>/app/main.js`, NODE_ENV=production, the
 * embedded database), asked GET /api/health until it answers, left idle, and its RSS read from /proc.
 * One warm-up start first (it creates the database: "existing data" after), then rounds interleaved
 * between the builds, medians printed. Then, from the last round, the server's own breakdown (/metrics:
 * V8 heap and memory outside it). Decision 180.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../tests/helpers/free-port.ts';
import { productionEnv, waitReady } from './startup.ts';

const { values: args, positionals: builds } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' }, idle: { type: 'string', default: '5' } },
});
if (!builds.length) {
  console.error('usage: node --import tsx bench/idle-memory.ts BUILD_DIR... [--rounds 3] [--idle 5]');
  process.exit(2);
}
const ROUNDS = Number(args.rounds);
const IDLE_MS = Number(args.idle) * 1000;
const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function statusMb(pid: number, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface Sample {
  rss: number;
  startMs: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

async function idleSample(buildDir: string, env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(buildDir, 'app', 'main.js')], {
    env: { ...process.env, ...env, BUILD_DIR: buildDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(base, 180_000);
    const startMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const rss = statusMb(child.pid!, 'VmRSS');
    // Read after the RSS: this request is the first the server answers beyond /api/health.
    const text = await (await fetch(`${base}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / MB;
    return { rss, startMs, heapUsed: value('nodejs_heap_size_used_bytes'), heapTotal: value('nodejs_heap_size_total_bytes'), external: value('nodejs_external_memory_bytes') };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-idle-'));
chmodSync(dataDir, 0o755);
const env = await productionEnv(dataDir);
const samples = new Map<string, Sample[]>(builds.map((b) => [b, []]));
try {
  await idleSample(builds[0], env);
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of builds) samples.get(build)!.push(await idleSample(build, env));
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`idle ${IDLE_MS / 1000} s after the first 200 of /api/health; medians of ${ROUNDS} starts, interleaved`);
console.log('build'.padEnd(24), 'RSS MB'.padStart(7), 'start s'.padStart(8), 'heapUsed'.padStart(9), 'heapTotal'.padStart(10), 'external'.padStart(9), '  every RSS');
for (const [build, list] of samples) {
  console.log(
    build.padEnd(24),
    median(list.map((s) => s.rss)).toFixed(1).padStart(7),
    (median(list.map((s) => s.startMs)) / 1000).toFixed(2).padStart(8),
    median(list.map((s) => s.heapUsed)).toFixed(1).padStart(9),
    median(list.map((s) => s.heapTotal)).toFixed(1).padStart(10),
    median(list.map((s) => s.external)).toFixed(1).padStart(9),
    ' ',
    list.map((s) => s.rss.toFixed(0)).join(', '),
  );
}
