// Lighthouse (mobile preset) on the public content pages, against the budget of issue 12 (which
// replaced issue 3's): performance 100, accessibility, best practices and SEO 100, JavaScript <= 15 KB
// transferred (compressed) per content page, Home's first view <= 150 KB transferred, CLS 0, Total
// Blocking Time < 50 ms, First and Largest Contentful Paint < 1.5 s (simulated). The JavaScript of
// each page is also counted without a browser by bench/page-weight.ts.
// A single Lighthouse run's Total Blocking Time on a shared 2-core machine swings between 0 and 90 ms
// for the same page, so each page is measured LIGHTHOUSE_RUNS times (default 3), the rounds
// interleaved across pages, and the median of each figure is reported with the range of TBT.
// Measures and reports; never fails. Run alone with:
//   node --import tsx bench/lighthouse.ts http://127.0.0.1:3000   (a server started on a production build)
// or through `npm run bench`, which calls the default export with the address of the server it started.
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher'; // ships with lighthouse (its own launcher)
import lighthouse from 'lighthouse';
import type { BenchRow } from './run.ts';

// The server-rendered articles pages too (their posts are written by bench/articles.ts, which runs first).
const PAGES = ['/', '/services', '/about', '/how-we-work', '/projects', '/equipments', '/gallery', '/certifications', '/articles', '/articles/bench-post-1'];

const BUDGET = {
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  scriptKb: 15,
  homeTotalKb: 150,
  cls: 0,
  tbtMs: 50,
  paintMs: 1500,
} as const;

// The same Chromium and flags as the browser tests (playwright.config.ts).
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface PageMeasure {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  scriptKb: number;
  totalKb: number;
  cls: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  /** Lighthouse's measure of this machine's CPU speed (simulated throttling scales from it). */
  benchmarkIndex: number;
  failedAudits: string[];
}

interface LhAudit {
  score: number | null;
  scoreDisplayMode?: string;
  numericValue?: number;
  title: string;
  details?: { items?: { resourceType?: string; transferSize?: number }[] };
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Runs Lighthouse once on one page and returns its raw figures. */
async function measureOnce(port: number, baseUrl: string, path: string): Promise<PageMeasure> {
  const result = await lighthouse(new URL(path, baseUrl).toString(), { port, output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
  const { categories, audits, environment } = result.lhr as unknown as {
    categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
    audits: Record<string, LhAudit>;
    environment: { benchmarkIndex: number };
  };
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const summary = audits['resource-summary']?.details?.items ?? [];
  const failedAudits = ['performance', 'accessibility', 'best-practices', 'seo'].flatMap((cat) =>
    categories[cat].auditRefs
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${cat}: ${audits[ref.id].title}`),
  );
  return {
    path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    scriptKb: kb(summary.find((i) => i.resourceType === 'script')?.transferSize ?? 0),
    totalKb: kb(audits['total-byte-weight']?.numericValue ?? 0),
    cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000,
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
    fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
    benchmarkIndex: Math.round(environment.benchmarkIndex),
    failedAudits,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** The median of each figure over a page's runs; an audit counts as failed when it failed in most runs. */
function medianMeasure(runs: PageMeasure[]): PageMeasure & { tbtRange: [number, number]; runs: number } {
  const figure = (key: keyof PageMeasure) => median(runs.map((r) => r[key] as number));
  const failures = runs.flatMap((r) => r.failedAudits);
  const tbts = runs.map((r) => r.tbtMs);
  return {
    path: runs[0].path,
    performance: figure('performance'),
    accessibility: figure('accessibility'),
    bestPractices: figure('bestPractices'),
    seo: figure('seo'),
    scriptKb: figure('scriptKb'),
    totalKb: figure('totalKb'),
    cls: figure('cls'),
    lcpMs: figure('lcpMs'),
    fcpMs: figure('fcpMs'),
    tbtMs: figure('tbtMs'),
    benchmarkIndex: figure('benchmarkIndex'),
    failedAudits: [...new Set(failures)].filter((f) => failures.filter((g) => g === f).length * 2 > runs.length),
    tbtRange: [Math.min(...tbts), Math.max(...tbts)],
    runs: runs.length,
  };
}

/**
 * Runs Lighthouse `runs` times on every page (round by round, so a busy moment of the machine does
 * not fall on one page's runs) and returns each page's medians. Pages that do not answer 200 (the
 * article written by bench/articles.ts when that module did not run) are left out and named.
 */
export async function measurePages(baseUrl: string, pages = PAGES, runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3)) {
  const present: string[] = [];
  const missing: string[] = [];
  for (const path of pages) ((await fetch(new URL(path, baseUrl))).status === 200 ? present : missing).push(path);
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const byPage = new Map<string, PageMeasure[]>(present.map((p) => [p, []]));
  try {
    for (let round = 0; round < runs; round++) {
      for (const path of present) byPage.get(path)!.push(await measureOnce(chrome.port, baseUrl, path));
    }
  } finally {
    await chrome.kill();
  }
  return { measures: present.map((p) => medianMeasure(byPage.get(p)!)), missing };
}

function verdict(ok: boolean, over: string) {
  return ok ? 'ok' : `MISSED ${over}`;
}

/** Bench rows (bench/run.ts table): one per page and budget item. */
async function runLighthouseBench(baseUrl: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const { measures, missing } = await measurePages(baseUrl);
  for (const p of missing) rows.push({ name: `Lighthouse ${p}`, value: 'not measured', ratio: 'page not found (bench/articles.ts writes it)' });
  for (const m of measures) {
    const p = m.path;
    rows.push(
      { name: `Lighthouse ${p} performance (>= ${BUDGET.performance})`, value: String(m.performance), ratio: verdict(m.performance >= BUDGET.performance, `by ${BUDGET.performance - m.performance}`) },
      { name: `Lighthouse ${p} accessibility (= 100)`, value: String(m.accessibility), ratio: verdict(m.accessibility >= BUDGET.accessibility, `by ${100 - m.accessibility}`) },
      { name: `Lighthouse ${p} best practices (= 100)`, value: String(m.bestPractices), ratio: verdict(m.bestPractices >= BUDGET.bestPractices, `by ${100 - m.bestPractices}`) },
      { name: `Lighthouse ${p} SEO (= 100)`, value: String(m.seo), ratio: verdict(m.seo >= BUDGET.seo, `by ${100 - m.seo}`) },
      { name: `${p} JavaScript transferred KB (<= ${BUDGET.scriptKb})`, value: String(m.scriptKb), ratio: verdict(m.scriptKb <= BUDGET.scriptKb, `by ${(m.scriptKb - BUDGET.scriptKb).toFixed(1)} KB`) },
      { name: `${p} CLS (= ${BUDGET.cls})`, value: String(m.cls), ratio: verdict(m.cls <= BUDGET.cls, `by ${(m.cls - BUDGET.cls).toFixed(3)}`) },
      {
        name: `${p} FCP / LCP / TBT ms (mobile, simulated; medians of ${m.runs}; < ${BUDGET.paintMs} / < ${BUDGET.paintMs} / < ${BUDGET.tbtMs})`,
        value: `${m.fcpMs} / ${m.lcpMs} / ${m.tbtMs}`,
        ratio: `${m.fcpMs < BUDGET.paintMs && m.lcpMs < BUDGET.paintMs && m.tbtMs < BUDGET.tbtMs ? 'ok' : 'MISSED'}, TBT ${m.tbtRange[0]}-${m.tbtRange[1]}, CPU index ${m.benchmarkIndex}`,
      },
    );
    if (p === '/') rows.push({ name: `/ first view transferred KB (<= ${BUDGET.homeTotalKb})`, value: String(m.totalKb), ratio: verdict(m.totalKb <= BUDGET.homeTotalKb, `by ${(m.totalKb - BUDGET.homeTotalKb).toFixed(1)} KB`) });
    for (const f of m.failedAudits) rows.push({ name: `  ${p} audit below 0.9`, value: f });
  }
  return rows;
}

export default runLighthouseBench;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = process.argv[2];
  if (!base) {
    console.error('usage: node --import tsx bench/lighthouse.ts <base URL of a running production server>');
    process.exit(2);
  }
  // (bench/run.ts runs the whole bench when imported, so this prints its own table.)
  const rows = await runLighthouseBench(base);
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.value.padEnd(8)}  ${r.ratio ?? ''}`);
}
