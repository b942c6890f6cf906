// Issue 12's JavaScript budget, read straight from the running server (no browser, so it does not
// depend on how busy the machine is): for every content page and the two form pages, the scripts the
// page loads (<script src> and <link rel="modulepreload">, plus the static imports of those
// modules) as compressed bytes (brotli and gzip, what a browser over HTTPS and plain HTTP gets).
// Run alone with:  node --import tsx bench/page-weight.ts http://127.0.0.1:3000
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './run.ts';

export const CONTENT_PAGES = ['/', '/services', '/about', '/how-we-work', '/projects', '/equipments', '/gallery', '/certifications', '/articles', '/articles/bench-post-1', '/no-such-page'];
const FORM_PAGES = ['/contact', '/vendor-registration'];
const BUDGET_KB = { content: 15, contentGoal: 10, form: 125 } as const;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

async function compressedSize(url: string, encoding: 'br' | 'gzip'): Promise<{ bytes: number; body: string }> {
  const res = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
  const body = await res.text();
  const length = Number(res.headers.get('content-length'));
  return { bytes: Number.isFinite(length) && length > 0 ? length : Buffer.byteLength(body), body };
}

/** Every script a page loads at once: its script tags, modulepreloads and their static imports. */
async function scriptsOf(base: string, path: string): Promise<string[]> {
  const html = await (await fetch(new URL(path, base))).text();
  const found = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) found.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) found.add(m[1]);
  const queue = [...found];
  while (queue.length) {
    const src = queue.shift()!;
    const code = await (await fetch(new URL(src, base))).text();
    // Static imports only (`import ... from "./x.js"` / `import "./x.js"`); import() stays lazy.
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*${}\s,]+from\s*)?["'`](\.\/[^"'`]+\.js)["'`]/g)) {
      const next = new URL(m[1], new URL(src, base)).pathname;
      if (!found.has(next)) {
        found.add(next);
        queue.push(next);
      }
    }
  }
  return [...found];
}

export async function pageScriptKb(base: string, path: string) {
  let br = 0;
  let gzip = 0;
  const scripts = await scriptsOf(base, path);
  for (const src of scripts) {
    br += (await compressedSize(new URL(src, base).toString(), 'br')).bytes;
    gzip += (await compressedSize(new URL(src, base).toString(), 'gzip')).bytes;
  }
  return { files: scripts.length, brKb: kb(br), gzipKb: kb(gzip) };
}

export default async function runPageWeightBench(base: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const path of [...CONTENT_PAGES, ...FORM_PAGES]) {
    const m = await pageScriptKb(base, path);
    const budget = FORM_PAGES.includes(path) ? BUDGET_KB.form : BUDGET_KB.content;
    const goal = FORM_PAGES.includes(path) ? '' : `, goal < ${BUDGET_KB.contentGoal}`;
    rows.push({
      name: `${path} JavaScript KB br / gzip, ${m.files} file(s) (<= ${budget}${goal})`,
      value: `${m.brKb} / ${m.gzipKb}`,
      ratio: m.gzipKb <= budget ? 'ok' : `MISSED by ${(m.gzipKb - budget).toFixed(1)} KB`,
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = process.argv[2];
  if (!base) {
    console.error('usage: node --import tsx bench/page-weight.ts <base URL of a running production server>');
    process.exit(2);
  }
  for (const r of await runPageWeightBench(base)) console.log(`${r.name.padEnd(75)} ${r.value.padStart(14)}  ${r.ratio ?? ''}`);
}
