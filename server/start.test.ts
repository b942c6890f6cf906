import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../tests/helpers/free-port.ts';
import { buildServer } from '../scripts/build-server.ts';
import { startServerProcess as startServer } from '../tests/helpers/server-process.ts';

// These tests run the real server process (server/main.ts) the way `npm start` does.
let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'server-process-'));
  chmodSync(root, 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function health(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`);
  return { status: res.status, body: await res.json() };
}

// Each start compiles the server with tsx; on a busy 2-core machine that takes a while.
describe('the server process', { timeout: 120_000 }, () => {
  it('starts on the embedded database with no set-up, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = path.join(root, 'data-a');
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) });
    await server.ready;
    expect(server.output()).toContain(`Ready: http://localhost:${port}`);
    expect(await health(port)).toMatchObject({ status: 200, body: { database: { ok: true } } });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('stopped');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });

  it('stops in time with a request still being answered on a keep-alive connection, and an unused connection, at SIGTERM', async () => {
    const port = await freePort();
    const server = startServer({ PORT: String(port), DATA_DIR: path.join(root, 'data-keepalive'), EMBEDDED_PG_PORT: String(await freePort()) });
    await server.ready;
    // A connection opened and never used (as browsers open spare ones).
    const unused = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => unused.once('connect', resolve));
    const unusedClosed = new Promise((resolve) => unused.once('close', resolve));
    // A body sent in two halves: the request is under way when the signal comes, and is answered after.
    const agent = new http.Agent({ keepAlive: true });
    const body = JSON.stringify({ name: 'Keep Alive', email: 'keep.alive@example.com', message: 'x'.repeat(200) });
    const answered = new Promise<{ status?: number; connection?: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/contact', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 500);
      }, 200);
    });
    const answer = await answered;
    // Answered normally (its connection would stay open for the keep-alive timeout) ...
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    // ... and the stop does not wait for that connection: it ends by itself, cleanly, well before the
    // forced exit (status 1) that a connection held for Fastify's 72 s keep-alive would cause.
    expect(await server.exited, server.output().slice(-2000)).toBe(0);
    expect(server.output()).toContain('stopped');
    await unusedClosed;
    agent.destroy();
  });

  it('comes back up after kill -9 with the data written before', async () => {
    const port = await freePort();
    const pgPort = String(await freePort());
    const env = { PORT: String(port), DATA_DIR: path.join(root, 'data-b'), EMBEDDED_PG_PORT: pgPort };
    const first = startServer(env);
    await first.ready;
    const pg = await import('pg');
    const url = `postgres://postgres:postgres@127.0.0.1:${pgPort}/app`;
    const client = new pg.default.Client({ connectionString: url });
    await client.connect();
    await client.query("CREATE TABLE crash_probe (v text); INSERT INTO crash_probe VALUES ('kept')");
    await client.end();
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startServer(env);
    await second.ready;
    expect((await health(port)).status).toBe(200);
    const again = new pg.default.Client({ connectionString: url });
    await again.connect();
    const { rows } = await again.query('SELECT v FROM crash_probe');
    await again.end();
    expect(rows).toEqual([{ v: 'kept' }]);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('fails fast with a clear message when another server holds the data directory', async () => {
    const env = { DATA_DIR: path.join(root, 'data-c'), EMBEDDED_PG_PORT: String(await freePort()) };
    const first = startServer({ ...env, PORT: String(await freePort()) });
    await first.ready;
    const second = startServer({ ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already used by another server/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('refuses bad configuration with one line per field', async () => {
    const server = startServer({ PORT: 'not-a-port', DATABASE_URL: 'mysql://nope' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toMatch(/PORT: /);
    expect(server.output()).toMatch(/DATABASE_URL: must start with postgres:\/\//);
  });
});

/**
 * The npm packages a compiled entry loads as it starts: its static imports, followed through its own
 * chunks, and through the chunks it imports at every start (`startChunks`: the application, loaded
 * while the database starts, decision 301). Any other dynamic `import()` is left out: it loads on first use.
 */
function packagesLoadedAtStart(entry: string, startChunks: RegExp): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/^import\s+(?:[\w$*{}\s,]+?\s+from\s+)?["']([^"']+)["'];?$/gm)) {
      const spec = m[1];
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'));
    }
    for (const m of code.matchAll(/\bimport\(["'](\.[^"']+)["']\)/g)) if (startChunks.test(path.basename(m[1]))) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(entry);
  return packages;
}

// `npm start` runs the server compiled at build time (scripts/build-server.ts), with node alone.
describe('the compiled server', { timeout: 180_000 }, () => {
  it('starts from build/app/main.js without tsx, answers, loads PDFKit, sharp, qrcode, file-type and nodemailer only when first needed', async () => {
    // Inside the project, like build/app: the compiled code finds its packages in node_modules.
    const outDir = mkdtempSync(path.join(process.cwd(), 'build-start-test-'));
    onTestFinished(() => rmSync(outDir, { recursive: true, force: true }));
    const main = await buildServer(path.join(outDir, 'app'));
    // What only some requests need is not loaded at start (decisions 156 and 180).
    const atStart = packagesLoadedAtStart(main, /^(start-app|migrate)-\w+\.js$/);
    expect(atStart).toContain('fastify');
    for (const lazy of ['sharp', 'pdfkit', 'qrcode', 'file-type', 'nodemailer']) expect(atStart).not.toContain(lazy);
    const port = await freePort();
    const server = startServer(
      { PORT: String(port), DATA_DIR: path.join(root, 'data-compiled'), EMBEDDED_PG_PORT: String(await freePort()) },
      { args: [main] },
    );
    await server.ready;
    expect(await health(port)).toMatchObject({ status: 200, body: { database: { ok: true } } });
    // sharp's native library (libvips) is not mapped into the process until an image needs it.
    expect(readFileSync(`/proc/${server.child.pid}/maps`, 'utf8')).not.toMatch(/libvips/);
    // The company profile PDF loads PDFKit on first use and still makes a whole document.
    const pdf = await fetch(`http://127.0.0.1:${port}/api/company-profile.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.subarray(-6).toString()).toMatch(/%%EOF/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
