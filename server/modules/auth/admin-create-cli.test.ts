import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/migrate.ts';
import { freePort } from '../../../tests/helpers/free-port.ts';

// `npm run admin:create` beside a running server on the embedded database (decision 161): it joins
// that server's PostgreSQL instead of refusing, and its refusals say what to do.

let root: string;
let dataDir: string;
let holder: ChildProcess;
let url: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'admin-create-'));
  chmodSync(root, 0o755);
  dataDir = path.join(root, 'postgres');
  const port = await freePort();
  // Another process holds the embedded database, as `npm start` does.
  holder = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/hold-embedded-pg.ts', dataDir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    holder.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    holder.on('exit', (code) => reject(new Error(`holder exited with ${code}: ${out}`)));
  });
  await runMigrations(url);
}, 120_000);

afterAll(async () => {
  if (holder?.exitCode === null) {
    const exited = new Promise((r) => holder.once('exit', r));
    holder.kill('SIGTERM');
    await exited;
  }
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

function adminCreate(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/modules/auth/admin-create-cli.ts', ...args], {
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', DATA_DIR: root, EMBEDDED_PG_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function admins() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SELECT email, name FROM users WHERE role = 'admin' ORDER BY email")).rows;
  } finally {
    await client.end();
  }
}

describe('npm run admin:create while the server runs on the embedded database', () => {
  it('creates the admin in the running server\'s database', async () => {
    const res = await adminCreate(['--email', 'ops.lead@example.test', '--name', 'Ops Lead'], { ADMIN_PASSWORD: 'copper valley signal forty' });
    expect(res.out).toContain('Admin created: Ops Lead <ops.lead@example.test>');
    expect(res.code).toBe(0);
    expect(await admins()).toEqual([{ email: 'ops.lead@example.test', name: 'Ops Lead' }]);
    // The server still holds its database: the command did not take it over or stop it.
    expect(holder.exitCode).toBeNull();
    expect(JSON.parse(readFileSync(`${dataDir}.lock`, 'utf8')).pid).toBe(holder.pid);
  }, 120_000);

  it('refuses a taken e-mail and a weak password, saying what to do, and creates nothing', async () => {
    const taken = await adminCreate(['--email', 'ops.lead@example.test', '--name', 'Again'], { ADMIN_PASSWORD: 'copper valley signal forty' });
    expect(taken.code).toBe(1);
    expect(taken.out).toContain('already exists');
    expect(taken.out).toMatch(/Nothing was created\. .*(another e-mail|Forgot password)/);
    const weak = await adminCreate(['--email', 'second@example.test', '--name', 'Second'], { ADMIN_PASSWORD: 'short' });
    expect(weak.code).toBe(1);
    expect(weak.out).toContain('at least 12 characters');
    expect(weak.out).toContain('Nothing was created.');
    expect(await admins()).toHaveLength(1);
  }, 120_000);
});
