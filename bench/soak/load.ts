import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import argon2 from 'argon2';
import pg from 'pg';
import sharp from 'sharp';
import { FORM_MIN_FILL_MS } from '../../common/form-guard.ts';
import { embeddedDatabaseUrl } from '../../server/db/embedded-postgres.ts';
import { ARGON2_OPTIONS } from '../../server/modules/auth/passwords.ts';
import { PG_PORT, CLIENTS, BASE, PASSWORD } from './options.ts';
import { dataDir } from './server.ts';

// ---- the data set -----------------------------------------------------------------------------

const db = () => new pg.Client({ connectionString: embeddedDatabaseUrl(PG_PORT) });

interface Client {
  id: string;
  username: string;
  projectId: string;
  token?: string;
}
export const clients: Client[] = [];
let adminToken = '';
export const reports: Array<{ id: string; projectId: string; imageId: string }> = [];
const files: string[] = [];
export const publicPaths: string[] = [];
let png: Buffer;

export async function seed() {
  const c = db();
  await c.connect();
  // The server's own settings: with argon2's defaults (64 MiB, 4 lanes) every first sign-in verified
  // a heavier hash than a real account has, and rewrote it (needsRehash).
  const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
  const [admin] = (await c.query(`INSERT INTO users (role, staff_role, name, email, password_hash) VALUES ('admin', 'owner', 'Soak Staff', 'soak-staff@example.test', $1) RETURNING id`, [hash])).rows;
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
export const stats = new Map<string, Stat>();
export let fiveHundreds = 0;
export let firstFailure = '';
export let firstServerError = '';
export const acknowledged = { messages: [] as string[], contacts: [] as string[], uploads: [] as string[] };

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

export async function worker(stopAt: number) {
  while (Date.now() < stopAt) {
    await nextAction()().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20 + randomInt(60)));
  }
}

export async function openConnections(): Promise<number> {
  const c = db();
  await c.connect();
  try {
    return Number((await c.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'app' AND pid <> pg_backend_pid()`)).rows[0].n);
  } finally {
    await c.end();
  }
}

/** The acknowledged writes that are not in the database (or whose file is gone). */
export async function missingWrites() {
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
