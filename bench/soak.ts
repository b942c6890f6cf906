/**
 * npm run soak [-- --minutes 10 | --seconds 60] [--crash] [--rounds 5] [--port 3632] [--workers 6]
 *                [--warm-up 180] [--server-env NAME=VALUE ...] [--node-options "--flag"]
 *
 * A bounded mixed load against the production build, started the README way (`npm run serve`, a
 * fresh embedded database in a temporary DATA_DIR): visitors reading public pages, contact forms
 * posted, clients signing in, reading projects and reports, downloading report PDFs and attachments,
 * sending messages with files, staff replying. At the end it prints requests by kind with p50/p99,
 * the 5xx count, the server's memory at start, after the warm-up and at the end (RSS, V8 heap used
 * and committed, external, the native rest), open database connections, the load average, and every
 * write that was acknowledged with a 2xx but is missing afterwards.
 *
 * --crash: the server's process group is killed with SIGKILL at random moments (--rounds times)
 * and started again with `npm run serve`, with no repair in between; the acknowledged writes are
 * checked after the last restart. Not part of `npm test` (decision 167).
 */
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { args, durationMs, WORKERS, ROUNDS, WARM_UP_MS, BASE, SNAPSHOT_DIR, ROOT, log } from './soak/options.ts';
import { dataDir, server, startServer, waitReady, rssMb, type MemorySample, memorySamples, memorySample, heapSnapshot, stopServer } from './soak/server.ts';
import { clients, reports, publicPaths, seed, stats, fiveHundreds, firstFailure, firstServerError, acknowledged, worker, openConnections, missingWrites } from './soak/load.ts';

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

export async function main() {
  // `npm run serve` runs ${BUILD_DIR:-build}: the soak can measure another build (BUILD_DIR=x npm run soak).
  if (!existsSync(path.join(ROOT, process.env.BUILD_DIR ?? 'build', 'server', 'index.js'))) {
    log('no production build yet: npm run build');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  log(`starting the server (npm run serve, NODE_ENV=production) on ${BASE}, data in ${dataDir}`);
  startServer();
  await waitReady();
  await seed();
  log(`seeded ${clients.length} clients with projects, ${reports.length} reports; ${publicPaths.length} public pages`);
  if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
  await heapSnapshot('after seeding');
  const memoryStart = rssMb();
  const connectionsStart = await openConnections();
  const started = Date.now();
  const firstSample = await memorySample(started);
  if (firstSample) memorySamples.push(firstSample);
  const memorySampler = setInterval(() => {
    void memorySample(started).then((m) => m && memorySamples.push(m));
  }, Number(args['memory-every']) * 1000);
  let warmSample = null as MemorySample | null;
  const warmUp = setTimeout(() => {
    void memorySample(started).then((m) => {
      if (m) memorySamples.push((warmSample = m));
    });
  }, Math.min(WARM_UP_MS, durationMs));
  const halfWay = SNAPSHOT_DIR && !ROUNDS ? setTimeout(() => void heapSnapshot('half-way'), durationMs / 2) : undefined;
  const stopAt = started + durationMs;
  log(`load for ${Math.round(durationMs / 1000)} s with ${WORKERS} workers${ROUNDS ? `, ${ROUNDS} SIGKILL rounds` : ''}`);
  const running = Array.from({ length: WORKERS }, () => worker(stopAt));

  const restarts: number[] = [];
  let connectionsMax = connectionsStart;
  const sampler = setInterval(() => {
    void openConnections().then((n) => (connectionsMax = Math.max(connectionsMax, n))).catch(() => undefined);
  }, 5000);
  if (ROUNDS) {
    for (let round = 1; round <= ROUNDS; round++) {
      // Kill moments spread over the run, each at a random point of its slice.
      const slice = durationMs / (ROUNDS + 1);
      const at = started + slice * round - slice / 2 + randomInt(Math.max(1, Math.floor(slice / 2)));
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      const pid = server!.pid!;
      process.kill(-pid, 'SIGKILL');
      const killedAt = Date.now();
      log(`round ${round}: SIGKILL to process group ${pid}; starting again with npm run serve`);
      startServer();
      await waitReady();
      restarts.push(Date.now() - killedAt);
      log(`round ${round}: ready again after ${((Date.now() - killedAt) / 1000).toFixed(1)} s`);
    }
  }
  await Promise.all(running);
  clearInterval(sampler);
  clearInterval(memorySampler);
  clearTimeout(halfWay);
  clearTimeout(warmUp);
  const lastSample = await memorySample(started);
  if (lastSample) memorySamples.push(lastSample);
  const memoryEnd = rssMb();
  await heapSnapshot('at the end');
  const connectionsEnd = await openConnections();
  const missing = await missingWrites();
  const elapsed = (Date.now() - started) / 1000;

  console.log(`\nSoak: ${elapsed.toFixed(0)} s, ${WORKERS} workers${ROUNDS ? `, ${ROUNDS} kill-and-restart rounds` : ''}`);
  console.log('kind'.padEnd(28), 'count'.padStart(7), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), '  statuses');
  let total = 0;
  for (const [kind, s] of [...stats.entries()].sort()) {
    const sorted = [...s.ms].sort((a, b) => a - b);
    total += s.n;
    console.log(
      kind.padEnd(28),
      String(s.n).padStart(7),
      quantile(sorted, 0.5).toFixed(0).padStart(8),
      quantile(sorted, 0.99).toFixed(0).padStart(8),
      ' ',
      [...s.status.entries()].map(([k, v]) => `${k}:${v}`).join(' '),
    );
  }
  const all = [...stats.values()].flatMap((s) => s.ms).sort((a, b) => a - b);
  console.log(`all requests: ${total} (${(total / elapsed).toFixed(1)}/s), p50 ${quantile(all, 0.5).toFixed(0)} ms, p99 ${quantile(all, 0.99).toFixed(0)} ms`);
  // CPU per request is what a setting costs, where requests per second also follow the machine's load.
  if (!ROUNDS && firstSample && lastSample) {
    const cpu = lastSample.cpu - firstSample.cpu;
    console.log(`server CPU over the load: ${cpu.toFixed(1)} s, ${((1000 * cpu) / total).toFixed(2)} ms per request`);
  }
  console.log(`5xx answers: ${fiveHundreds}`);
  if (firstServerError) console.log(`first 5xx answer: ${firstServerError}`);
  if (firstFailure) console.log(`first request that got no answer: ${firstFailure}`);
  console.log(`server memory (RSS from /proc): ${memoryStart ?? '?'} MB at start, ${memoryEnd ?? '?'} MB at end${ROUNDS ? ' (of the last restarted process)' : ''}`);
  memorySamples.sort((a, b) => a.s - b.s);
  const columns = (m: MemorySample) => [m.rss, m.heapUsed, m.heapTotal, m.external, m.native].map((v) => v.toFixed(0).padStart(9)).join('');
  const header = ['rss', 'heapUsed', 'heapTotal', 'external', 'native'].map((h) => h.padStart(9)).join('');
  if (memorySamples.length) {
    // native = rss - heapTotal - external: malloc arenas of native code, code and stacks.
    console.log(`server memory (MB, from /metrics)${ROUNDS ? ', each of the process alive then' : ''}:`);
    console.log(`  ${''.padEnd(30)}${header}`);
    if (firstSample) console.log(`  ${'at start (after seeding)'.padEnd(30)}${columns(firstSample)}`);
    if (warmSample) console.log(`  ${`after warm-up (${warmSample.s} s)`.padEnd(30)}${columns(warmSample)}`);
    if (lastSample) console.log(`  ${`at end (${lastSample.s} s)`.padEnd(30)}${columns(lastSample)}`);
    const after = warmSample ? memorySamples.filter((m) => m.s >= warmSample!.s) : [];
    if (warmSample && lastSample && after.length > 1) {
      const range = (key: keyof MemorySample) => `${Math.min(...after.map((m) => m[key])).toFixed(0)}-${Math.max(...after.map((m) => m[key])).toFixed(0)}`;
      console.log(`  after warm-up, min-max: rss ${range('rss')}, heapTotal ${range('heapTotal')}, external ${range('external')}, native ${range('native')}`);
      const change = lastSample.rss - warmSample.rss;
      console.log(`  rss from warm-up to end: ${change >= 0 ? '+' : ''}${change.toFixed(0)} MB (${((100 * change) / warmSample.rss).toFixed(0)}%); highest sample ${Math.max(...memorySamples.map((m) => m.rss)).toFixed(0)} MB`);
    }
    console.log(`  every sample (s, load average, then the columns above):`);
    const shown = memorySamples.filter((_, i) => i % Math.max(1, Math.ceil(memorySamples.length / 24)) === 0 || i === memorySamples.length - 1);
    for (const m of shown) console.log(`  ${String(m.s).padStart(5)} ${m.load.toFixed(1).padStart(5)} ${columns(m)}`);
    const loads = memorySamples.map((m) => m.load).sort((a, b) => a - b);
    console.log(`load average (1 min) over the run: median ${loads[Math.floor(loads.length / 2)].toFixed(1)}, ${loads[0].toFixed(1)}-${loads[loads.length - 1].toFixed(1)}`);
  }
  console.log(`open database connections: ${connectionsStart} at start, ${connectionsEnd} at end, at most ${connectionsMax}`);
  if (ROUNDS) console.log(`restarts: ${restarts.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} from SIGKILL to ready, no repair`);
  console.log(
    `acknowledged writes: ${acknowledged.messages.length} messages, ${acknowledged.contacts.length} contact forms, ${acknowledged.uploads.length} attachments; ` +
      `missing afterwards: ${missing.messages} messages, ${missing.contacts} contact forms, ${missing.attachments ?? '?'} attachments`,
  );
  const failed = fiveHundreds > 0 || missing.messages > 0 || missing.contacts > 0 || (missing.attachments ?? 0) > 0;
  await stopServer();
  rmSync(dataDir, { recursive: true, force: true });
  if (failed) {
    console.log('SOAK FAILED (5xx answers or acknowledged writes missing)');
    process.exitCode = 1;
  }
}

main().catch(async (err) => {
  console.error(err);
  await stopServer();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
