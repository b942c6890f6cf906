// Page rows of `npm run bench` (issue 15): the content pages (issue 24), the server-rendered pages
// that stay (/articles, an article), the not-found page and route discovery (/__manifest), each beside a static server that
// answers the same bytes with the same status from memory, run in its own process. Warm-up first,
// then interleaved rounds (ours, reference, ours, ...) and medians. Needs the posts of articles.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../tests/helpers/free-port.ts';
import type { BenchRow } from './run.ts';

const ROUNDS = Number(process.env.BENCH_PAGES_ROUNDS ?? 3);
const ROUND_S = Number(process.env.BENCH_PAGES_ROUND_S ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const REFERENCE_SERVER = `
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
const pages = JSON.parse(readFileSync(process.env.PAGES_FILE, 'utf8'));
const app = Fastify({ logger: false });
for (const [i, p] of pages.entries()) {
  const body = Buffer.from(p.body, 'base64');
  app.get('/' + i, async (_req, reply) => reply.status(p.status).type(p.type).send(body));
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

async function measure(url: string, seconds: number, status: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  const wrong = status === 200 ? result.non2xx : result.requests.total - (result.statusCodeStats?.[String(status) as '404']?.count ?? 0);
  if (wrong > 0 || result.errors > 0) throw new Error(`${url}: ${wrong} answers other than ${status}, ${result.errors} errors`);
  return result.requests.average;
}

export default async function pagesBench(base: string): Promise<BenchRow[]> {
  // The build's version, as a browser learns it: from the route manifest script the page loads.
  // /contact is hydrated (content pages like /about load no React Router since decision 140).
  const contact = await (await fetch(`${base}/contact`)).text();
  const manifestScript = /\/assets\/manifest-[^"]+\.js/.exec(contact)?.[0] ?? '';
  const version = /"version":"([^"]+)"/.exec(await (await fetch(`${base}${manifestScript}`)).text())?.[1] ?? '';
  const pages = [
    // The content pages (issue 24): pre-rendered at build until decision 289, rendered from the
    // published content and kept in memory after it; either way at least half the static rate.
    { name: 'GET / (content page)', path: '/', status: 200 },
    { name: 'GET /about (content page)', path: '/about', status: 200 },
    { name: 'GET /services (content page)', path: '/services', status: 200 },
    { name: 'GET /contact (content page)', path: '/contact', status: 200 },
    { name: 'GET /articles (server-rendered, cached)', path: '/articles', status: 200 },
    { name: 'GET /articles/bench-post-1 (server-rendered, cached)', path: '/articles/bench-post-1', status: 200 },
    { name: 'GET /no-such-page (404, pre-rendered document)', path: '/no-such-page', status: 404 },
    { name: 'GET /__manifest (route discovery)', path: `/__manifest?paths=${encodeURIComponent('/articles,/contact,/about')}&version=${version}`, status: 200 },
  ];
  const bodies = [];
  for (const p of pages) {
    const res = await fetch(`${base}${p.path}`, { headers: { 'accept-encoding': 'identity' } });
    if (res.status !== p.status) throw new Error(`${p.path}: ${res.status}, expected ${p.status}`);
    bodies.push({ status: res.status, type: res.headers.get('content-type') ?? 'text/html', body: Buffer.from(await res.arrayBuffer()).toString('base64') });
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pages-'));
  const pagesFile = path.join(dir, 'pages.json');
  writeFileSync(pagesFile, JSON.stringify(bodies));
  const script = path.join(process.cwd(), 'node_modules', '.bench-pages-reference.mjs');
  writeFileSync(script, REFERENCE_SERVER);
  const port = await freePort();
  const reference = spawn(process.execPath, [script], { env: { ...process.env, PORT: String(port), PAGES_FILE: pagesFile }, stdio: 'inherit' });
  const refBase = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${refBase}/0`)).ok) break;
      } catch {
        // not yet listening
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Warm-up of both servers on every path.
    for (const [i, p] of pages.entries()) {
      await measure(`${base}${p.path}`, 1, p.status);
      await measure(`${refBase}/${i}`, 1, p.status);
    }
    const ours: number[][] = pages.map(() => []);
    const ref: number[][] = pages.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, p] of pages.entries()) {
        ours[i].push(await measure(`${base}${p.path}`, ROUND_S, p.status));
        ref[i].push(await measure(`${refBase}/${i}`, ROUND_S, p.status));
      }
    }
    return pages.map((p, i) => {
      const o = median(ours[i]);
      const s = median(ref[i]);
      return { name: `${p.name} req/s [baseline: static server, same bytes]`, value: o.toFixed(0), baseline: s.toFixed(0), ratio: (o / s).toFixed(2) };
    });
  } finally {
    reference.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    rmSync(script, { force: true });
  }
}
