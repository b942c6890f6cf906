// Signed-in API figures for npm run bench (issue 15): each path loaded in interleaved rounds
// (ours, reference, ours, reference, ...) after a warm-up of both, medians of the rounds, against
// reference servers in their own processes (bench/reference-server.ts): plain `pg` running the same
// SQL, and a bare Fastify answering the same bytes. Accounts and threads go straight into the
// product's database (BENCH_DATABASE_URL, set by bench/run.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { compare, fmt, startReference } from './interleave.ts';
import { LIST_PAGE_SIZE } from '../common/schemas/pagination.ts';
import { hashToken, RESOLVE_SESSION } from '../server/modules/auth/sessions.service.ts';
import { CLIENT_PROJECTS_WITH_SESSION } from '../server/modules/projects/projects.service.ts';

interface BenchRow {
  name: string;
  value: string;
  baseline?: string;
  ratio?: string;
}

const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 10);
const PAGE = 20;
const BIG_THREAD = 20_000;
// Sends are limited to 30 a minute per sender (decision 063): the load rotates over this many staff sessions.
const SENDERS = 1500;


// The reference statements: the product's own SQL text, imported (so the two cannot drift apart),
// run by the reference as plain unnamed queries: the session join for /me; for a client's list the
// statement that reads the session and the page together (decision 171).
const SESSION_SQL = RESOLVE_SESSION.text;
const PROJECTS_SQL = CLIENT_PROJECTS_WITH_SESSION.text;
const INSERT_SQL = `insert into messages (project_id, sender_id, receiver_id, subject, text) values ($1, $2, $3, 'Load', 'A message sent under load.') returning id`;

async function seed(db: pg.Client) {
  const suffix = randomBytes(4).toString('hex');
  const one = async (text: string, values: unknown[]) => (await db.query<{ id: string }>(text, values)).rows[0].id;
  const clientId = await one(`insert into users (role, name, email, username) values ('client', $1, $2, $3) returning id`, [
    `Api bench client ${suffix}`,
    `api-bench-${suffix}@example.test`,
    `api-bench-${suffix}`,
  ]);
  const adminId = await one(`insert into users (role, staff_role, name, email) values ('admin', 'owner', $1, $2) returning id`, [`Api bench admin ${suffix}`, `api-bench-admin-${suffix}@example.test`]);
  const project = (name: string) => one(`insert into projects (client_id, name, code) values ($1, $2, $3) returning id`, [clientId, name, `${name}-${suffix}`]);
  for (let i = 1; i <= 5; i++) await project(`API-P${i}`);
  const small = await project('API-T100');
  const big = await project('API-T20K');
  const send = await project('API-SEND');
  // Threads: alternate senders, one a second; older messages read, the newest few not.
  const fill = (projectId: string, n: number) =>
    db.query(
      `with sent as (insert into messages (project_id, sender_id, receiver_id, subject, text, created_at, is_read)
       select $1, case when g % 2 = 0 then $2::uuid else $3::uuid end, case when g % 2 = 0 then $3::uuid else null end,
         'Update ' || g, 'Progress note number ' || g || ' about the works on site.', now() - (g * interval '1 second'), g > 10
       from generate_series(1, $4::int) as g returning id, receiver_id, is_read)
       insert into message_reads (message_id, user_id, read_at) select id, receiver_id, now() from sent where receiver_id is not null and is_read`,
      [projectId, adminId, clientId, n],
    );
  await fill(small, 100);
  await fill(big, BIG_THREAD);
  await db.query('analyze messages');
  const session = async (userId: string) => {
    const token = randomBytes(32).toString('base64url');
    await db.query(`insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`, [userId, hashToken(token)]);
    return token;
  };
  const senders = await db.query<{ id: string }>(
    `insert into users (role, staff_role, name, email) select 'admin', 'owner', 'Api sender ' || g || ' ' || $1, 'api-sender-' || g || '-' || $1 || '@example.test'
     from generate_series(1, $2::int) as g returning id`,
    [suffix, SENDERS],
  );
  const senderTokens = senders.rows.map(() => randomBytes(32).toString('base64url'));
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at) select unnest($1::uuid[]), unnest($2::text[]), now() + interval '1 day'`,
    [senders.rows.map((r) => r.id), senderTokens.map(hashToken)],
  );
  return { clientId, adminId, small, big, send, clientToken: await session(clientId), senderTokens };
}

export default async function apiBench(base: string): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('bench/api.ts needs BENCH_DATABASE_URL (set by bench/run.ts)');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const s = await seed(db).finally(() => db.end());
  const auth = { authorization: `Bearer ${s.clientToken}` };
  const get = async (p: string) => {
    const res = await fetch(`${base}${p}`, { headers: auth });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return res.text();
  };
  const paths = {
    me: '/api/auth/me',
    projects: `/api/projects/client/${s.clientId}`,
    small: `/api/messages/project/${s.small}?limit=${PAGE}`,
    big: `/api/messages/project/${s.big}?limit=${PAGE}`,
  };
  const bodies = { '/me': await get(paths.me), '/projects': await get(paths.projects), '/small': await get(paths.small), '/big': await get(paths.big) };
  const bare = await startReference('bare', { ...bodies, '/send': '{"success":true}' });
  const raw = await startReference('pg', {}, {
    '/me': { text: SESSION_SQL, values: [hashToken(s.clientToken)], body: bodies['/me'] },
    // The values the product runs it with for this request (default page: LIST_PAGE_SIZE from offset 0).
    '/projects': { text: PROJECTS_SQL, values: [hashToken(s.clientToken), s.clientId, LIST_PAGE_SIZE, 0], body: bodies['/projects'] },
    '/send': { method: 'POST', text: INSERT_SQL, values: [s.send, s.adminId, s.clientId], body: '{"success":true}' },
  });
  const rows: BenchRow[] = [];
  const row = (name: string, ours: number, ref: number) => rows.push({ name, value: fmt(ours), baseline: fmt(ref), ratio: fmt(ours / ref, 2) });
  try {
    const [me, meRaw, meBare] = await compare([{ url: `${base}${paths.me}`, headers: auth }, { url: `${raw.base}/me` }, { url: `${bare.base}/me` }], CONNECTIONS);
    row('GET /api/auth/me req/s (ref: plain pg, same SQL)', me, meRaw);
    row('GET /api/auth/me req/s (ref: bare Fastify, same bytes)', me, meBare);
    const [pr, prRaw, prBare] = await compare([{ url: `${base}${paths.projects}`, headers: auth }, { url: `${raw.base}/projects` }, { url: `${bare.base}/projects` }], CONNECTIONS);
    row('GET /api/projects/client/:id, 5 projects, req/s (ref: plain pg, same SQL)', pr, prRaw);
    row('GET /api/projects/client/:id, 5 projects, req/s (ref: bare Fastify)', pr, prBare);
    const [small, smallBare, big, bigBare] = await compare([
      { url: `${base}${paths.small}`, headers: auth },
      { url: `${bare.base}/small` },
      { url: `${base}${paths.big}`, headers: auth },
      { url: `${bare.base}/big` },
    ], CONNECTIONS);
    row(`thread page of ${PAGE}, thread of 100, req/s (ref: bare Fastify, same bytes)`, small, smallBare);
    row(`thread page of ${PAGE}, thread of ${BIG_THREAD.toLocaleString('en')}, req/s (ref: bare Fastify, same bytes)`, big, bigBare);
    rows.push({ name: `thread page cost, ${BIG_THREAD.toLocaleString('en')} vs 100 messages (req/s ratio)`, value: fmt(big / small, 2) });
    let next = 0;
    const [send, sendRaw] = await compare([
      {
        url: `${base}/api/messages`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'Load', text: 'A message sent under load.', projectId: s.send }),
        requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${s.senderTokens[next++ % s.senderTokens.length]}` } }) }],
      },
      { url: `${raw.base}/send`, method: 'POST' },
    ], CONNECTIONS);
    row('POST /api/messages req/s (ref: plain pg INSERT)', send, sendRaw);
  } finally {
    await Promise.all([bare.stop(), raw.stop()]);
  }
  return rows;
}
