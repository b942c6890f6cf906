import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../tests/helpers/free-port.ts';
import { createTestDatabase } from '../tests/helpers/test-app.ts';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process.ts';
import { developmentPagePolicy, pagePolicy } from './plugins/security-headers.ts';

// `npm run dev` as a real process (server/dev.ts, what the script runs): embedded PostgreSQL,
// the API, and the web pages through Vite's dev server in middleware mode.
let root: string;
let dataDir: string;
let base: string;
let child: ChildProcess;
let server: ServerProcess;
const output = () => server.output();
let exited: Promise<number | null>;
let browser: Browser | undefined;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'dev-server-'));
  chmodSync(root, 0o755);
  dataDir = path.join(root, 'data');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServerProcess(
    { NODE_ENV: 'development', SERVE_WEB: 'true', PORT: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) },
    { args: ['--import', 'tsx', 'server/dev.ts'] },
  );
  child = server.child;
  exited = server.exited;
  await server.ready;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (child.exitCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
});

async function page(urlPath: string) {
  const res = await fetch(base + urlPath);
  return { status: res.status, headers: res.headers, html: await res.text() };
}

// Vite compiles each module on first request; on a busy 2-core machine the first page takes a while.
describe('npm run dev', { timeout: 180_000 }, () => {
  // A hydrated page (the content pages load no React at all, decision 140).
  it('server-renders /contact from the sources, with modules that load Vite\'s client', async () => {
    const home = await page('/contact');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    expect(home.html).toMatch(/<h1[\s>]/);
    // React Router's development runtime, served by Vite, instead of the hashed files of build/.
    expect(home.html).toContain('virtual:react-router/inject-hmr-runtime');
    expect(home.html).toContain('href="/app/root.tsx"');
    expect(home.html).not.toContain('/assets/');
    const rootModule = await fetch(`${base}/app/root.tsx`);
    expect(rootModule.headers.get('content-type')).toMatch(/javascript/);
    expect(await rootModule.text()).toContain('from "/@vite/client"');
    const viteClient = await fetch(`${base}/@vite/client`);
    expect(viteClient.status).toBe(200);
    expect(viteClient.headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers with the development CSP, which adds only the HMR websocket to production\'s', async () => {
    const home = await page('/');
    const csp = home.headers.get('content-security-policy');
    // Decision 170: the answer's nonce, on every script of the page (Vite's and React Router's too).
    const nonce = /<script nonce="([^"]+)"/.exec(home.html)?.[1] ?? '';
    expect(nonce).not.toBe('');
    expect(csp).toBe(developmentPagePolicy(nonce));
    expect(csp).toContain("connect-src 'self' ws: wss:");
    expect(pagePolicy(nonce)).toContain("connect-src 'self';");
    const contact = await page('/contact');
    const contactNonce = /'nonce-([^']+)'/.exec(contact.headers.get('content-security-policy') ?? '')?.[1];
    expect(contactNonce).not.toBe(nonce);
    const scripts = contact.html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts) expect(script).toContain(`nonce="${contactNonce}"`);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('server-renders a client route\'s loading view, and the 404 page with its status', async () => {
    const login = await page('/s/login');
    expect(login.status).toBe(200);
    expect(login.html).toContain('<title>Client Login</title>');
    expect(login.html).toContain('href="/app/routes/portal/client-login.tsx"');
    const missing = await page('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<html');
  });

  it('still answers the API, and unknown /api paths with the JSON 404', async () => {
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ database: { ok: true } });
    const unknown = await fetch(`${base}/api/no-such-route`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('connects Chromium to Vite\'s HMR websocket on the same port, and hot-updates a touched module without reloading', async () => {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    const tab = await browser.newPage();
    const messages: string[] = [];
    tab.on('console', (m) => messages.push(m.text()));
    const connected = tab.waitForEvent('console', { predicate: (m) => m.text() === '[vite] connected.', timeout: 120_000 });
    await tab.goto(`${base}/contact`, { timeout: 120_000 });
    await connected;
    await tab.evaluate(() => Object.assign(window, { devServerProbe: 'same document' }));

    // The test shares the working tree with other engineers, so it does not change a source file's
    // content: it only touches contact.tsx (same bytes, new mtime), which Vite's watcher treats as an edit.
    const homeModule = path.resolve('app/routes/site/contact.tsx');
    const updated = tab.waitForEvent('console', {
      predicate: (m) => m.text() === '[vite] hot updated: /app/routes/site/contact.tsx',
      timeout: 60_000,
    });
    const now = new Date();
    utimesSync(homeModule, now, now);
    await updated;
    expect(await tab.evaluate(() => (window as unknown as { devServerProbe?: string }).devServerProbe)).toBe('same document');
    expect(messages.filter((m) => /Content Security Policy|Refused to/i.test(m))).toEqual([]);
  });

  it('stops cleanly on SIGTERM, with the HMR websocket still open', async () => {
    child.kill('SIGTERM');
    // The server's own words, so a failure says which step of the stop went wrong.
    expect(await exited, output().slice(-4000)).toBe(0);
    expect(output()).toContain('stopped');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});

describe('npm start / npm run serve', { timeout: 120_000 }, () => {
  it('serves the web pages from the build without ever loading Vite', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'no-vite-'));
    // A stand-in web build, so the production web plugin loads as it does after `npm run build`.
    mkdirSync(path.join(dir, 'build', 'server'), { recursive: true });
    mkdirSync(path.join(dir, 'build', 'client'), { recursive: true });
    writeFileSync(
      path.join(dir, 'build', 'server', 'index.js'),
      "export const routes = {}; export const entry = { module: {} }; export const assets = { routes: {}, entry: { module: '', imports: [] }, url: '', version: '1' }; export const future = {}; export const publicPath = '/'; export const assetsBuildDirectory = ''; export const ssr = true; export const isSpaMode = false; export const prerender = [];\n",
    );
    // A module resolution hook that writes down every module the process loads.
    const loaded = path.join(dir, 'loaded.txt');
    writeFileSync(
      path.join(dir, 'hook.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(${JSON.stringify(loaded)}, result.url + '\\n');\n  return result;\n}\n`,
    );
    writeFileSync(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n");
    const db = await createTestDatabase();
    const port = await freePort();
    const server = spawn(process.execPath, ['--import', 'tsx', '--import', path.join(dir, 'register.mjs'), 'server/main.ts'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: db.url, BUILD_DIR: path.join(dir, 'build'), DATA_DIR: path.join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    server.stdout!.on('data', (d) => (log += d));
    server.stderr!.on('data', (d) => (log += d));
    const done = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => log.includes('Ready: http') && (clearInterval(timer), resolve()), 50);
        void done.then((code) => (clearInterval(timer), reject(new Error(`exited (${code}):\n${log}`))));
      });
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      server.kill('SIGTERM');
      expect(await done).toBe(0);
      const modules = readFileSync(loaded, 'utf8').split('\n');
      expect(modules.some((url) => url.endsWith('/server/plugins/web.ts'))).toBe(true);
      expect(modules.filter((url) => /\/node_modules\/(vite|@react-router\/dev)\/|web-dev\.ts$/.test(url))).toEqual([]);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
