// Search and list figures for npm run bench (BENCH_ONLY=search.ts runs only these): fills the running
// production server's database with 10,000 clients, 50,000 projects, 50,000 reports and 1,000,000
// messages in a few set-based statements (generate_series, never a row at a time), then measures
// staff and client search over many terms, and the staff client list's first page against a deep page
// by cursor and by page number in each order (bench/search-lists.ts).
// Accounts and sessions go straight into the database (BENCH_DATABASE_URL, set by bench/run.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { hashToken } from '../server/modules/auth/sessions.service.ts';
import { listRows } from './search-lists.ts';

interface BenchRow {
  name: string;
  value: string;
}

const CLIENTS = Number(process.env.BENCH_SEARCH_CLIENTS ?? 10_000);
const PROJECTS = Number(process.env.BENCH_SEARCH_PROJECTS ?? 50_000);
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const MESSAGE_BATCH = 250_000;
const RUNS_PER_TERM = 5;

// Words of a building site's correspondence; a message is twelve of them, so a single common word is
// in about one message in thirty (tens of thousands of hits), two together in about one in a thousand.
const WORDS = `concrete slab formwork rebar pour cure crane scaffold excavation trench drainage culvert asphalt paving kerb
gravel granite aggregate cement mixer pump pile jetty wharf quay dredging barge tug vessel berth container forklift
warehouse racking depot truck trailer haulage convoy route permit customs clearance invoice payment budget variation
delay weather rain flood erosion survey drawing design approval inspection safety helmet harness incident report
welding steel beam column girder bolt weld pipe valve pressure test commissioning generator cable transformer
substation lighting roof cladding glazing plaster paint tile floor screed ceiling door window stair handrail
foundation footing backfill compaction grading road bridge deck bearing joint sealant waterproofing membrane
drawing schedule meeting site visit progress milestone handover snag defect warranty retention certificate`
  .split(/\s+/)
  .filter(Boolean);
// Words in about one message in ten thousand each: the searches that must find a needle.
const RARE = Array.from({ length: 500 }, (_, i) => `tagword${i}`);

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
};

async function seed(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const started = performance.now();
  const step = async (label: string, text: string, values: unknown[] = []) => {
    const t0 = performance.now();
    await db.query(text, values);
    console.log(`  search bench: ${label} in ${fmt((performance.now() - t0) / 1000)} s`);
  };
  try {
    const suffix = randomBytes(3).toString('hex');
    await db.query(`set maintenance_work_mem = '256MB'`);
    await db.query(`create temporary table bench_words (n int primary key, w text not null)`);
    await db.query(`insert into bench_words select i, w from unnest($1::text[]) with ordinality as t(w, i)`, [WORDS]);
    await step(
      `${CLIENTS} clients`,
      `insert into users (role, name, email, username, status)
       select 'client', (array['Adaeze','Bola','Chidi','Dayo','Emeka','Funke','Gbenga','Hauwa','Ife','Jide'])[1 + i % 10] || ' '
              || (array['Okafor','Adeyemi','Bello','Eze','Nwosu','Lawal','Obi','Musa','Ajayi','Uche'])[1 + (i / 10) % 10] || ' ' || i,
              'bench-client-' || i || '-' || $2 || '@example.test', 'bench-' || $2 || '-' || i,
              (array['new','in-progress','completed'])[1 + i % 3]
       from generate_series(1, $1::int) as i`,
      [CLIENTS, suffix],
    );
    await step(
      `${PROJECTS} projects`,
      `with c as (select id, row_number() over (order by id) as n from users where role = 'client' and username like 'bench-' || $3 || '-%')
       insert into projects (client_id, name, code, description, status, created_at)
       select c.id, initcap(w1.w) || ' ' || initcap(w2.w) || ' ' || i, 'BP-' || $3 || '-' || i, 'Bench project ' || i,
              (array['not-started','in-progress','paused','completed'])[1 + i % 4], now() - (i || ' minutes')::interval
       from generate_series(1, $1::int) as i
       join c on c.n = 1 + (i % $2::int)
       join bench_words w1 on w1.n = 1 + (i * 7) % ${WORDS.length}
       join bench_words w2 on w2.n = 1 + (i * 13) % ${WORDS.length}`,
      [PROJECTS, CLIENTS, suffix],
    );
    await db.query(`create temporary table bench_projects as select id, client_id, row_number() over (order by id) as n from projects where code like 'BP-' || $1 || '-%'`, [suffix]);
    await db.query(`create index on bench_projects (n)`);
    await db.query(`analyze bench_projects`);
    // The text index is built once after the rows are in: maintaining it row by row is many times slower.
    await db.query(`drop index if exists messages_search_idx`);
    await db.query(`drop index if exists progress_reports_search_idx`);
    await step(
      `${PROJECTS} reports`,
      `insert into progress_reports (project_id, date, project_code, project, team, tasks, progress, challenges, next_steps)
       select p.id, current_date - (p.n % 700)::int, 'BP-' || p.n, 'Bench project ' || p.n, 'Site team',
              (select string_agg(($1::text[])[1 + (p.n * k) % ${WORDS.length}], ' ') from generate_series(1, 8) as k),
              (select string_agg(($1::text[])[1 + (p.n * k + 3) % ${WORDS.length}], ' ') from generate_series(1, 12) as k),
              '', ''
       from bench_projects p`,
      [WORDS],
    );
    for (let from = 0; from < MESSAGES; from += MESSAGE_BATCH) {
      const to = Math.min(MESSAGES, from + MESSAGE_BATCH);
      // Twelve words drawn at random per message, and one rare word in about one message in twenty.
      await step(
        `messages ${from + 1}-${to}`,
        `insert into messages (project_id, sender_id, subject, text, is_read, created_at)
         select p.id, p.client_id, 'Subject: ' || initcap(w.words[1]) || ' ' || w.words[2],
                array_to_string(w.words, ' ') || case when i % 20 = 0 then ' ' || ($4::text[])[1 + (i / 20) % ${RARE.length}] else '' end,
                true, now() - ((${MESSAGES} - i) || ' seconds')::interval
         from generate_series($1::int, $2::int) as i
         join bench_projects p on p.n = 1 + (i % $3::int)
         cross join lateral (
           -- random() runs once per word; k keeps the aggregate at this level, i ties it to its message
           -- (without i the planner would draw one set of words for all).
           select array_agg(($5::text[])[1 + floor(random() * ${WORDS.length})::int + k * 0 + i * 0]) as words
           from generate_series(1, 12) as k
         ) w`,
        [from + 1, to, PROJECTS, RARE, WORDS],
      );
    }
    await step('text index of messages', `create index messages_search_idx on messages using gin (search_vector)`);
    await step('text index of reports', `create index progress_reports_search_idx on progress_reports using gin (search_vector)`);
    await step('analyze', `analyze`);
    const admin = (await db.query<{ id: string }>(`insert into users (role, staff_role, name, email) values ('admin', 'owner', 'Bench search admin', $1) returning id`, [`bench-search-admin-${suffix}@example.test`])).rows[0].id;
    // The client with the most messages' worth of projects: the first bench client.
    const client = (await db.query<{ id: string }>(`select client_id as id from bench_projects where n = 1`)).rows[0].id;
    const tokens = [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];
    await db.query(`insert into sessions (user_id, token_hash, expires_at) select u, h, now() + interval '1 day' from unnest($1::uuid[], $2::text[]) as t(u, h)`, [
      [admin, client],
      tokens.map(hashToken),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const size = (await db.query<{ s: string }>(`select pg_size_pretty(pg_database_size(current_database())) as s`)).rows[0].s;
    return { adminToken: tokens[0], clientToken: tokens[1], seconds, size };
  } finally {
    await db.end();
  }
}

/** Milliseconds of one GET, body read; any answer but 200 stops the bench. */
async function timeGet(url: string, token: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return performance.now() - started;
}

async function measure(urls: string[], token: string, runs = RUNS_PER_TERM) {
  for (const url of urls) await timeGet(url, token); // warm-up: plans, caches, connections
  const times: number[] = [];
  const byUrl = new Map<string, number[]>();
  for (let r = 0; r < runs; r++) {
    for (const url of urls) {
      const ms = await timeGet(url, token);
      times.push(ms);
      byUrl.set(url, [...(byUrl.get(url) ?? []), ms]);
    }
  }
  // The slowest requests by their median, to show where the time goes.
  const slowest = [...byUrl]
    .map(([url, ms]) => ({ url: decodeURIComponent(url.replace(/^.*\/api/, '')), median: percentile(ms, 0.5) }))
    .sort((a, b) => b.median - a.median)
    .slice(0, 5);
  for (const s of slowest) console.log(`  slowest: ${s.url} ${fmt(s.median)} ms`);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), n: times.length, byUrl };
}

export default async function searchBench(base: string): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('bench/search.ts needs BENCH_DATABASE_URL (set by bench/run.ts)');
  const s = await seed(databaseUrl);
  // Common words, pairs, stems of words the text holds in another form, rare words, names, codes, nothing.
  const terms = [
    ...WORDS.filter((_, i) => i % 8 === 0),
    'paved road', 'poured concrete', 'inspecting cranes', 'welded beams', 'delayed payment', 'flooded trench',
    'crane permit', 'jetty dredging', 'container forklift', 'safety incident report',
    ...RARE.filter((_, i) => i % 50 === 0),
    'Okafor', 'Adaeze Bello', 'bench-client-77', 'BP-', 'Jetty Wharf', 'zeppelin', 'qq',
  ];
  const q = (path: string, term: string) => `${base}${path}?q=${encodeURIComponent(term)}`;
  const staff = await measure(terms.map((t) => q('/api/search', t)), s.adminToken);
  const client = await measure(terms.map((t) => q('/api/search/mine', t)), s.clientToken);
  const lists = await listRows(base, s.adminToken, CLIENTS, measure);
  return [
    { name: `search data made (${CLIENTS} clients, ${PROJECTS} projects and reports, ${MESSAGES} messages)`, value: `${fmt(s.seconds, 0)} s, database ${s.size}` },
    { name: `GET /api/search median ms (${terms.length} terms x ${RUNS_PER_TERM})`, value: fmt(staff.median) },
    { name: 'GET /api/search p95 ms', value: fmt(staff.p95) },
    { name: `GET /api/search/mine median ms (one client's projects)`, value: fmt(client.median) },
    { name: 'GET /api/search/mine p95 ms', value: fmt(client.p95) },
    ...lists,
  ];
}
