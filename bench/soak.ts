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
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import argon2 from 'argon2';
import pg from 'pg';
import sharp from 'sharp';
import { FORM_MIN_FILL_MS } from '../common/form-guard.ts';
import { embeddedDatabaseUrl } from '../server/db/embedded-postgres.ts';
import { ARGON2_OPTIONS } from '../server/modules/auth/passwords.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    crash: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    port: { type: 'string', default: '3632' },
    'pg-port': { type: 'string', default: '55632' },
    workers: { type: 'string', default: '6' },
    clients: { type: 'string', default: '12' },
    // Extra flags for the server's node (NODE_OPTIONS), e.g. "--max-semi-space-size=4".
    'node-options': { type: 'string', default: '' },
    // Extra environment for the server only (not this process), e.g. GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576.
    'server-env': { type: 'string', multiple: true, default: [] },
    // Seconds of load after which the server counts as warmed up (compiled code, pools, caches):
    // memory after it should stay flat. Default: a third of the run, at most 180 s.
    'warm-up': { type: 'string' },
    // Writes heap snapshots (taken after a full GC) of the server into this folder: after seeding,
    // half-way through the load and at its end, to tell a leak from a high-water mark.
    'heap-snapshots': { type: 'string' },
    // Seconds between memory samples read from /metrics.
    'memory-every': { type: 'string', default: '15' },
  },
});
const durationMs = args.seconds ? Number(args.seconds) * 1000 : Number(args.minutes ?? 10) * 60_000;
const PORT = Number(args.port);
const PG_PORT = Number(args['pg-port']);
const WORKERS = Number(args.workers);
const CLIENTS = Number(args.clients);
const ROUNDS = args.crash ? Number(args.rounds) : 0;
const WARM_UP_MS = args['warm-up'] ? Number(args['warm-up']) * 1000 : Math.min(180_000, Math.round(durationMs / 3));
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = `soak-${randomBytes(9).toString('base64url')}`;
const SNAPSHOT_DIR = args['heap-snapshots'] ? path.resolve(args['heap-snapshots']) : '';
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---- the server, the README way -------------------------------------------------------------

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-soak-'));
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
let server: ChildProcess | null = null;
let serverOutput = '';

function startServer(): ChildProcess {
  // Its own process group, as a service manager runs it; a crash round kills the whole group.
  const child = spawn('npm', ['run', '--silent', 'serve'], { cwd: ROOT, env: serverEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (serverOutput = (serverOutput + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (serverOutput = (serverOutput + d).slice(-20_000)));
  return child;
}

async function waitReady(timeoutMs = 180_000) {
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
function rssMb(): number | null {
  const pid = serverPid();
  if (!pid) return null;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
}

interface MemorySample {
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
const memorySamples: MemorySample[] = [];

/** The server's own view of its memory (prom-client's default metrics, from this machine's address). */
async function memorySample(since: number): Promise<MemorySample | null> {
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
async function heapSnapshot(label: string) {
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

async function stopServer() {
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

// ---- the data set -----------------------------------------------------------------------------

const db = () => new pg.Client({ connectionString: embeddedDatabaseUrl(PG_PORT) });

interface Client {
  id: string;
  username: string;
  projectId: string;
  token?: string;
}
const clients: Client[] = [];
let adminToken = '';
const reports: Array<{ id: string; projectId: string; imageId: string }> = [];
const files: string[] = [];
const publicPaths: string[] = [];
let png: Buffer;

async function seed() {
  const c = db();
  await c.connect();
  // The server's own settings: with argon2's defaults (64 MiB, 4 lanes) every first sign-in verified
  // a heavier hash than a real account has, and rewrote it (needsRehash).
  const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
  const [admin] = (await c.query(`INSERT INTO users (role, name, email, password_hash) VALUES ('admin', 'Soak Staff', 'soak-staff@example.test', $1) RETURNING id`, [hash])).rows;
  for (let i = 0; i < CLIENTS; i++) {
    const username = `soak-client-${i}`;
    const [u] = (await c.query(`INSERT INTO users (role, name, email, username, password_hash) VALUES ('client', $1, $2, $3, $4) RETURNING id`, [`Soak Client ${i} Ltd`, `${username}@example.test`, username, hash])).rows;
    const [p] = (await c.query(`INSERT INTO projects (client_id, name, code) VALUES ($1, $2, $3) RETURNING id`, [u.id, `Soak project ${i}`, `SOAK-${i}`])).rows;
    clients.push({ id: u.id, username, projectId: p.id });
  }
  await c.end();
  void admin;
  adminToken = await signIn('/api/auth/adminlogin', { email: 'soak-staff@example.test', password: PASSWORD });
  png = await sharp({ create: { width: 640, height: 420, channels: 3, background: { r: 40, g: 90, b: 150 } } }).png().toBuffer();
  // Reports with a picture on the first projects, made by staff through the API.
  for (const client of clients.slice(0, Math.min(6, clients.length))) {
    const form = new FormData();
    for (const [k, v] of Object.entries({ date: '2026-11-20', projectId: client.projectId, projectCode: 'SOAK', project: 'Soak project', tasks: 'Piling', progress: 'Half way' })) form.append(k, v);
    form.append('images', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'site.png');
    const res = await fetch(`${BASE}/api/reports`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
    if (res.status !== 201) throw new Error(`seeding a report failed: ${res.status} ${await res.text()}`);
    const report = ((await res.json()) as { report: { _id: string; images: Array<{ _id: string }> } }).report;
    reports.push({ id: report._id, projectId: client.projectId, imageId: report.images[0]._id });
  }
  const sitemap = await (await fetch(`${BASE}/sitemap.xml`)).text();
  for (const m of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) publicPaths.push(new URL(m[1]).pathname);
  if (!publicPaths.length) publicPaths.push('/');
}

async function signIn(url: string, body: object): Promise<string> {
  const res = await fetch(`${BASE}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { token?: string };
  if (res.status !== 200 || !json.token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(json)}`);
  return json.token;
}

// ---- the load -----------------------------------------------------------------------------------

interface Stat {
  n: number;
  status: Map<string, number>;
  ms: number[];
}
const stats = new Map<string, Stat>();
let fiveHundreds = 0;
let firstFailure = '';
let firstServerError = '';
const acknowledged = { messages: [] as string[], contacts: [] as string[], uploads: [] as string[] };

function record(kind: string, status: number | 'down', ms: number) {
  let s = stats.get(kind);
  if (!s) stats.set(kind, (s = { n: 0, status: new Map(), ms: [] }));
  s.n++;
  s.status.set(String(status), (s.status.get(String(status)) ?? 0) + 1);
  if (status !== 'down') s.ms.push(ms);
  if (typeof status === 'number' && status >= 500) fiveHundreds++;
}

async function timed(kind: string, url: string, init: RequestInit = {}): Promise<Response | null> {
  const started = performance.now();
  try {
    const res = await fetch(`${BASE}${url}`, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = await res.arrayBuffer();
    record(kind, res.status, performance.now() - started);
    if (res.status >= 500 && !firstServerError) firstServerError = `${kind} ${url}: ${res.status} ${Buffer.from(body).toString('utf8').slice(0, 300)}`;
    return new Response(res.status === 204 ? null : body, { status: res.status, headers: res.headers });
  } catch (err) {
    // Refused or cut off: the server is down (a crash round) or overloaded; never a 2xx.
    if (!firstFailure) firstFailure = `${kind}: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}`;
    record(kind, 'down', performance.now() - started);
    // While the server is down (a crash round), wait a little instead of spinning.
    await new Promise((r) => setTimeout(r, 500));
    return null;
  }
}

const pick = <T>(list: T[]) => list[randomInt(list.length)];
const visitorIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function clientToken(client: Client): Promise<string | null> {
  if (client.token) return client.token;
  const res = await timed('client sign-in', '/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorIp() },
    body: JSON.stringify({ username: client.username, password: PASSWORD }),
  });
  if (res?.status !== 200) return null;
  client.token = ((await res.json()) as { token: string }).token;
  return client.token;
}

const actions: Array<[number, () => Promise<void>]> = [
  [30, async () => void (await timed('public page', pick(publicPaths), { headers: { 'x-forwarded-for': visitorIp() } }))],
  [
    4,
    async () => {
      const ip = visitorIp();
      const t = await timed('form token', '/api/form-token', { headers: { 'x-forwarded-for': ip } });
      if (t?.status !== 200) return;
      const { token } = (await t.json()) as { token: string };
      await new Promise((r) => setTimeout(r, FORM_MIN_FILL_MS.contact + 100));
      const email = `visitor-${randomBytes(6).toString('hex')}@example.test`;
      const res = await timed('contact form post', '/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ name: 'Soak Visitor', email, message: 'Please call me about a warehouse.', formToken: token, homepageUrl: '' }),
      });
      if (res && res.status >= 200 && res.status < 300) acknowledged.contacts.push(email);
    },
  ],
  [
    4,
    async () => {
      const client = pick(clients);
      client.token = undefined; // a fresh sign-in
      await clientToken(client);
    },
  ],
  [
    14,
    async () => {
      const client = pick(clients);
      const token = await clientToken(client);
      if (!token) return;
      const res = await timed('client reads projects', `/api/projects/client/${client.id}`, { headers: bearer(token) });
      if (res?.status === 401) client.token = undefined;
    },
  ],
  [
    10,
    async () => {
      const client = pick(clients);
      const token = await clientToken(client);
      if (!token) return;
      await timed('client reads reports', `/api/reports/project/${client.projectId}`, { headers: bearer(token) });
      await timed('client reads messages', `/api/messages/project/${client.projectId}`, { headers: bearer(token) });
    },
  ],
  [
    4,
    async () => {
      const report = pick(reports);
      await timed('report PDF download', `/api/reports/${report.id}/pdf`, { headers: bearer(adminToken) });
      await timed('report image download', `/api/reports/${report.id}/images/${report.imageId}`, { headers: bearer(adminToken) });
    },
  ],
  [
    6,
    async () => {
      if (files.length) await timed('attachment download', pick(files), { headers: bearer(adminToken) });
    },
  ],
  [
    6,
    async () => {
      const client = pick(clients);
      const token = await clientToken(client);
      if (!token) return;
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'site.png');
      const up = await timed('message upload', '/api/messages/upload', { method: 'POST', headers: bearer(token), body: form });
      if (up?.status !== 201) return;
      const file = ((await up.json()) as { file: { publicId: string; url: string } }).file;
      const res = await timed('message with file sent', '/api/messages', {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ text: `Progress photo ${randomBytes(3).toString('hex')}`, projectId: client.projectId, attachments: [file.publicId] }),
      });
      if (res?.status === 201) {
        acknowledged.messages.push(((await res.json()) as { message: { _id: string } }).message._id);
        acknowledged.uploads.push(file.publicId);
        files.push(file.url);
      }
    },
  ],
  [
    5,
    async () => {
      const client = pick(clients);
      const res = await timed('staff reply', '/api/messages', {
        method: 'POST',
        headers: { ...bearer(adminToken), 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Thank you, noted.', projectId: client.projectId }),
      });
      if (res?.status === 201) acknowledged.messages.push(((await res.json()) as { message: { _id: string } }).message._id);
      if (res?.status === 401) adminToken = await signIn('/api/auth/adminlogin', { email: 'soak-staff@example.test', password: PASSWORD }).catch(() => adminToken);
    },
  ],
];
const totalWeight = actions.reduce((n, [w]) => n + w, 0);
function nextAction() {
  let r = randomInt(totalWeight);
  for (const [w, action] of actions) {
    if ((r -= w) < 0) return action;
  }
  return actions[0][1];
}

let stopAt = 0;
async function worker() {
  while (Date.now() < stopAt) {
    await nextAction()().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20 + randomInt(60)));
  }
}

async function openConnections(): Promise<number> {
  const c = db();
  await c.connect();
  try {
    return Number((await c.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'app' AND pid <> pg_backend_pid()`)).rows[0].n);
  } finally {
    await c.end();
  }
}

/** The acknowledged writes that are not in the database (or whose file is gone). */
async function missingWrites() {
  const c = db();
  await c.connect();
  try {
    const msgs = (await c.query(`SELECT id FROM messages WHERE id = ANY($1::uuid[])`, [acknowledged.messages])).rows.length;
    const contacts = (await c.query(`SELECT email FROM contact_messages WHERE email = ANY($1::text[])`, [acknowledged.contacts])).rows.length;
    const uploads = (await c.query(`SELECT storage_key FROM message_files WHERE id = ANY($1::uuid[]) AND message_id IS NOT NULL`, [acknowledged.uploads]).catch(() => null))?.rows ?? null;
    let filesMissing = 0;
    if (uploads) {
      const have = new Set(listFiles(path.join(dataDir, 'uploads')));
      filesMissing = uploads.filter((u: { storage_key: string }) => !have.has(u.storage_key)).length;
    }
    return {
      messages: acknowledged.messages.length - msgs,
      contacts: acknowledged.contacts.length - contacts,
      attachments: uploads ? acknowledged.uploads.length - uploads.length + filesMissing : null,
    };
  } finally {
    await c.end();
  }
}
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.part'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

async function main() {
  // `npm run serve` runs ${BUILD_DIR:-build}: the soak can measure another build (BUILD_DIR=x npm run soak).
  if (!existsSync(path.join(ROOT, process.env.BUILD_DIR ?? 'build', 'server', 'index.js'))) {
    log('no production build yet: npm run build');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  log(`starting the server (npm run serve, NODE_ENV=production) on ${BASE}, data in ${dataDir}`);
  server = startServer();
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
  stopAt = started + durationMs;
  log(`load for ${Math.round(durationMs / 1000)} s with ${WORKERS} workers${ROUNDS ? `, ${ROUNDS} SIGKILL rounds` : ''}`);
  const running = Array.from({ length: WORKERS }, () => worker());

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
      server = startServer();
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
