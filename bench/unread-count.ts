// The client unread-count query before and after per-person reads (decision 281), on the same data:
// a database at the schema before migration 0026 is seeded (51 clients, one project each with 2,000
// messages, half from staff, all but the newest 10 read), the old query is timed, then 0026 runs
// (its backfill turns the client's reads into message_reads rows) and the new query is timed, for the
// client's person and for a colleague who has read nothing. Run: node --import tsx bench/unread-count.ts
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { MIGRATIONS_DIR, runMigrations } from '../server/db/migrate.ts';
import { freePort } from '../tests/helpers/free-port.ts';

const CLIENTS = 51;
const PER_PROJECT = 2000;
const RUNS = 300;

// As unreadCounts (server/modules/messages/messages.service.ts) writes them for a client viewer.
const BEFORE = `select m.project_id, p.client_id, count(*) from messages m join projects p on p.id = m.project_id
  where m.receiver_id = $1 and not m.is_read group by m.project_id, p.client_id order by min(m.created_at), m.project_id`;
const AFTER = `select m.project_id, p.client_id, count(*) from messages m join projects p on p.id = m.project_id
  where m.receiver_id = $1 and m.deleted_at is null and not exists (select 1 from message_reads r where r.message_id = m.id and r.user_id = $2)
  group by m.project_id, p.client_id order by min(m.created_at), m.project_id`;

async function medianMs(db: pg.Client, text: string, values: unknown[]): Promise<{ median: number; rows: number }> {
  const name = `q${Math.random().toString(36).slice(2)}`;
  let rows = 0;
  for (let i = 0; i < 20; i++) rows = (await db.query({ name, text, values })).rows.reduce((s, r) => s + Number(r.count), 0);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await db.query({ name, text, values });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], rows };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'unread-bench-'));
// PostgreSQL may run as another user (as root, the embedded server drops to one).
chmodSync(dataDir, 0o755);
const pgHandle = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: await freePort(), log: { info: () => {}, warn: console.warn, debug: () => {} } });
try {
  // The schema before 0026: the migrations folder without it.
  const folder = path.join(dataDir, 'migrations');
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag !== '0026_message_reads');
  writeFileSync(journalFile, JSON.stringify(journal));
  const db = new pg.Client({ connectionString: pgHandle.url });
  await db.connect();
  await db.query('SET client_min_messages TO warning');
  await migrate(drizzle(db), { migrationsFolder: folder });

  await db.query(`insert into users (role, staff_role, name, email) values ('admin', 'owner', 'Bench staff', 'staff@bench.test')`);
  await db.query(`insert into users (role, name, email, username) select 'client', 'Client ' || i, 'c' || i || '@bench.test', 'c' || i from generate_series(1, $1::int) i`, [CLIENTS + 1]);
  await db.query(`insert into projects (client_id, name, code) select id, 'Project of ' || name, 'P-' || username from users where username <> 'c${CLIENTS + 1}' and role = 'client'`);
  await db.query(`insert into messages (project_id, sender_id, receiver_id, text, is_read, created_at)
    select p.id, case when g % 2 = 0 then s.id else p.client_id end, case when g % 2 = 0 then p.client_id end,
      'Note ' || g, g <= $1::int - 20, now() - (($1::int - g) * interval '1 minute')
    from projects p, generate_series(1, $1::int) g, (select id from users where role = 'admin') s`, [PER_PROJECT]);
  await db.query('vacuum analyze');
  const [{ id: clientId }] = (await db.query(`select id from users where username = 'c1'`)).rows;
  const [{ id: colleagueId }] = (await db.query(`select id from users where username = 'c${CLIENTS + 1}'`)).rows;
  const before = await medianMs(db, BEFORE, [clientId]);
  await db.end();

  await runMigrations(pgHandle.url);
  const after = new pg.Client({ connectionString: pgHandle.url });
  await after.connect();
  await after.query('vacuum analyze');
  const person = await medianMs(after, AFTER, [clientId, clientId]);
  const colleague = await medianMs(after, AFTER, [clientId, colleagueId]);
  await after.end();
  console.log(`messages: ${CLIENTS * PER_PROJECT}; the client's project: ${PER_PROJECT} (${PER_PROJECT / 2} from staff)`);
  console.log(`before (shared flag):            median ${before.median.toFixed(3)} ms, ${before.rows} unread`);
  console.log(`after (message_reads), reader:   median ${person.median.toFixed(3)} ms, ${person.rows} unread`);
  console.log(`after, a colleague who read none: median ${colleague.median.toFixed(3)} ms, ${colleague.rows} unread`);
} finally {
  await pgHandle.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
