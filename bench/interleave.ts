// The pieces the signed-in API benches share (bench/api.ts, bench/finance.ts): reference servers in
// their own processes (bench/reference-server.ts), and interleaved rounds of autocannon after a
// warm-up of every target, reported as medians.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 4);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export const fmt = (n: number, digits = 0) => n.toFixed(digits);
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A reference server in its own process: 'bare' answers the given bodies, 'pg' runs the given queries with plain `pg`. */
export async function startReference(
  mode: 'bare' | 'pg',
  bodies: Record<string, string>,
  queries: Record<string, unknown> = {},
) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ref-'));
  writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify(bodies));
  writeFileSync(path.join(dir, 'queries.json'), JSON.stringify(queries));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./reference-server.ts', import.meta.url).pathname, mode],
    {
      env: {
        ...process.env,
        BENCH_BODIES: path.join(dir, 'bodies.json'),
        BENCH_QUERIES: path.join(dir, 'queries.json'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', () => reject(new Error(`reference server (${mode}) exited`)));
  });
  return {
    base: `http://127.0.0.1:${port.trim()}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function load(options: autocannon.Options, seconds: number, connections: number) {
  const result = await autocannon({ connections, duration: seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/** Warm-up of each, then ROUNDS interleaved rounds (A, B, C, A, B, C, ...) at `connections`; the median req/s of each. */
export async function compare(targets: autocannon.Options[], connections: number): Promise<number[]> {
  for (const t of targets) await load(t, WARMUP_S, connections);
  const runs: number[][] = targets.map(() => []);
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, t] of targets.entries()) runs[i].push(await load(t, ROUND_S, connections));
  return runs.map(median);
}
