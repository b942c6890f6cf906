// Articles figures for npm run bench: the server-rendered /articles and one article page beside the
// pre-rendered /about, on the same server in the same run (goal of issue 10: at least half of /about's
// rate, decision 097). The "bare Fastify" column of these rows holds /about's figure. Posts are written
// straight into the bench server's database (BENCH_DATABASE_URL) with the 'blog_changed' event, as
// the blog module writes them. Rounds are interleaved (about, list, article, about, ...) and the
// median of the rounds is printed, so a burst of load from elsewhere on the machine hits all three.
import autocannon from 'autocannon';
import pg from 'pg';
import type { BenchRow } from './run.ts';

const POSTS = 24;
const ROUNDS = Number(process.env.BENCH_ARTICLES_ROUNDS ?? 3);
const ROUND_S = Number(process.env.BENCH_ARTICLES_ROUND_S ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const fmt = (n: number, digits = 0) => n.toFixed(digits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function writePosts(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const paragraph = '<p>The crew replaced the fendering, dredged the berth and re-surfaced the quay, working around the tide and the vessels that kept calling at the jetty throughout the programme.</p>';
    for (let i = 0; i < POSTS; i++) {
      const at = new Date(Date.now() - (i + 1) * 86_400_000);
      await client.query(
        `insert into blog_posts (title, slug, excerpt, content, author, category, status, visibility, publish_at, first_published_at)
         values ($1, $2, $3, $4, 'Bench Writer', 'Infrastructure', 'published', 'visible', $5, $5)`,
        [`Bench post ${i + 1}: jetty works completed`, `bench-post-${i + 1}`, 'A short summary of the works and what comes next.', paragraph.repeat(8), at],
      );
    }
    await client.query(`select pg_notify('blog_changed', '"resync"')`);
    await client.query('commit');
  } finally {
    await client.end();
  }
}

async function measure(url: string, seconds: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

export default async function articlesBench(base: string): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) return [];
  await writePosts(databaseUrl);
  const article = '/articles/bench-post-1';
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${base}${article}`)).ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const paths = { about: '/about', list: '/articles', article };
  // Warm-up: the first render fills the page cache, the JIT settles.
  for (const p of Object.values(paths)) await measure(`${base}${p}`, 1);
  const runs: Record<keyof typeof paths, { rps: number; p99: number }[]> = { about: [], list: [], article: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const key of Object.keys(paths) as (keyof typeof paths)[]) runs[key].push(await measure(`${base}${paths[key]}`, ROUND_S));
  }
  const about = { rps: median(runs.about.map((x) => x.rps)), p99: median(runs.about.map((x) => x.p99)) };
  const rows: BenchRow[] = [];
  for (const [key, label] of [['list', 'GET /articles (server-rendered, cached)'], ['article', `GET ${article} (server-rendered, cached)`]] as const) {
    const rps = median(runs[key].map((x) => x.rps));
    const p99 = median(runs[key].map((x) => x.p99));
    rows.push(
      { name: `${label} req/s [baseline: /about]`, value: fmt(rps), baseline: fmt(about.rps), ratio: fmt(rps / about.rps, 2) },
      { name: `${label} p99 ms [baseline: /about]`, value: fmt(p99, 1), baseline: fmt(about.p99, 1), ratio: fmt(p99 / Math.max(about.p99, 0.1), 2) },
    );
  }
  return rows;
}
