import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openEventStream } from '../tests/helpers/event-stream.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import { multipartBody } from '../tests/helpers/multipart.ts';
import { samplePdf } from '../tests/helpers/sample-files.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../tests/helpers/server-process.ts';
import { MIGRATIONS_DIR } from './db/migrate.ts';
import { ACCOUNT_FAILURE_LIMIT } from './modules/auth/login-attempts.service.ts';

// Several processes, one product (issue 14): two real server processes, started together on one
// blank PostgreSQL database and one S3-compatible bucket (s3rver), as behind a load balancer.

const PASSWORD = 'correct horse battery staple';
const BUCKET = 'portal-two';
// A blank database of its own (not the migrated template): the two processes migrate it.
const dbName = `two_${randomBytes(5).toString('hex')}`;
let s3: S3rver;
let s3Dir: string;
let s3Port: number;
let dbUrl: string;
let root: string;
const servers: ServerProcess[] = [];
let baseA: string;
let baseB: string;

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function insertUser(role: 'admin' | 'client', name: string) {
  const suffix = randomBytes(4).toString('hex');
  const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const [row] = await sql<{ id: string; email: string; username: string | null }>(
    `INSERT INTO users (role, staff_role, name, email, username, password_hash) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, email, username`,
    [role, role === 'admin' ? 'owner' : null, name, `${role}-${suffix}@example.test`, role === 'client' ? `client-${suffix}` : null, hash],
  );
  return row;
}

const login = (base: string, body: object) =>
  fetch(`${base}/api/auth/${'email' in body ? 'adminlogin' : 'login'}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function token(base: string, body: object): Promise<string> {
  const res = await login(base, body);
  const json = (await res.json()) as { token?: string };
  if (res.status !== 200 || !json.token) throw new Error(`login failed: ${res.status} ${JSON.stringify(json)}`);
  return json.token;
}

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(os.tmpdir(), 'portal-two-s3-'));
  s3Port = await freePort();
  s3 = new S3rver({ address: '127.0.0.1', port: s3Port, directory: s3Dir, silent: true, vhostBuckets: false, configureBuckets: [{ name: BUCKET, configs: [] }] });
  await s3.run();
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const u = new URL(inject('pgAdminUrl'));
  u.pathname = `/${dbName}`;
  dbUrl = u.toString();
  root = mkdtempSync(path.join(os.tmpdir(), 'portal-two-'));

  const ports = [await freePort(), await freePort()];
  for (const [i, port] of ports.entries()) {
    servers.push(
      startServerProcess({
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: dbUrl,
        DATA_DIR: path.join(root, `p${i}`),
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    );
  }
  await Promise.all(servers.map((s) => s.ready));
  [baseA, baseB] = ports.map((p) => `http://127.0.0.1:${p}`);
}, 180_000);

afterAll(async () => {
  for (const s of servers) await stopServerProcess(s);
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
}, 60_000);

describe('two server processes on one PostgreSQL and one bucket', { timeout: 120_000 }, () => {
  it('ran the migrations once although both started together on a blank database', async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const applied = await sql<{ hash: string }>('SELECT hash FROM drizzle.__drizzle_migrations');
    expect(applied).toHaveLength(journal.entries.length);
    expect(new Set(applied.map((r) => r.hash)).size).toBe(journal.entries.length);
  });

  it('signs in through one and reads through the other', async () => {
    const client = await insertUser('client', 'Rivers Dredging Ltd');
    await sql(`INSERT INTO projects (client_id, name, code) VALUES ($1, 'Bonny channel survey', 'TWO-READ')`, [client.id]);
    const bearer = await token(baseA, { username: client.username, password: PASSWORD });
    const res = await fetch(`${baseB}/api/projects/client/${client.id}`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('Bonny channel survey');
    // Signing out through B ends the session for A too.
    expect((await fetch(`${baseB}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` } })).status).toBeLessThan(300);
    expect((await fetch(`${baseA}/api/auth/me`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(401);
  });

  it('delivers a message with a file sent through one live to a stream held by the other, and the file downloads through either', async () => {
    const client = await insertUser('client', 'Onne Logistics');
    const admin = await insertUser('admin', 'Staff Two');
    const [project] = await sql<{ id: string }>(`INSERT INTO projects (client_id, name, code) VALUES ($1, 'Onne yard', 'TWO-LIVE') RETURNING id`, [client.id]);
    const clientBearer = await token(baseA, { username: client.username, password: PASSWORD });
    const adminBearer = await token(baseB, { email: admin.email, password: PASSWORD });
    const staffStream = await openEventStream(baseB, '', { authorization: `Bearer ${adminBearer}` });
    await staffStream.waitFor((e) => e.event === 'ready', 30_000);

    const pdf = samplePdf('Yard layout, revision C');
    const { payload, headers } = multipartBody({}, { filename: 'layout.pdf', contentType: 'application/pdf', data: pdf });
    const up = await fetch(`${baseA}/api/messages/upload`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${clientBearer}` }, body: new Uint8Array(payload) });
    expect(up.status).toBe(201);
    const file = ((await up.json()) as { file: { publicId: string; url: string } }).file;
    const sent = await fetch(`${baseA}/api/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientBearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Layout attached', projectId: project.id, attachments: [file.publicId] }),
    });
    expect(sent.status).toBe(201);
    const created = await staffStream.waitFor((e) => e.event === 'message', 15_000);
    expect(created.data).toMatchObject({ type: 'message.created', projectId: project.id, clientId: client.id });
    await staffStream.close();

    for (const [base, bearer] of [[baseB, adminBearer], [baseB, clientBearer], [baseA, adminBearer]]) {
      const got = await fetch(`${base}${file.url}`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(pdf)).toBe(true);
    }
  });

  it('counts sign-in failures across both processes', async () => {
    const client = await insertUser('client', 'Ikot Abasi Works');
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      const res = await login(i % 2 ? baseB : baseA, { username: client.username, password: 'not the password' });
      expect(res.status).toBe(401);
    }
    // Three failures through A and two through B: the account waits, whichever process is asked.
    for (const base of [baseA, baseB]) expect((await login(base, { username: client.username, password: PASSWORD })).status).toBe(429);
  });
});
