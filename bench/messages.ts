// Messaging figures for npm run bench: sending and listing messages under load, and one 50 MB
// attachment upload (multipart, streamed; and the specification's base64 JSON shape) against the
// running production server. Accounts, a project and sessions go straight into its database
// (BENCH_DATABASE_URL, set by bench/run.ts), since production has no way to make them over HTTP.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { hashToken } from '../server/modules/auth/sessions.service.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import { sampleMp4 } from '../tests/helpers/sample-files.ts';
import { MESSAGE_ATTACHMENT_MAX_BYTES } from '../common/schemas/messages.ts';

interface BenchRow {
  name: string;
  value: string;
  baseline?: string;
  ratio?: string;
}

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const THREAD_SIZE = 50;
const UPLOAD_RUNS = 3;
// Sending is limited per sender (30 a minute, 120 an hour: decision 063), so the send load rotates
// over this many staff sessions; enough for about 60,000 messages within one minute (200 senders,
// 6,000 a minute, ran out in 8 s on a quiet 2-core machine once a send became one statement).
const SENDERS = 2000;

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function seed(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const suffix = randomBytes(4).toString('hex');
    const user = async (role: 'admin' | 'client') =>
      (
        await db.query<{ id: string }>(
          `insert into users (role, staff_role, name, email, username) values ($1, $2, $3, $4, $5) returning id`,
          [role, role === 'admin' ? 'owner' : null, `Bench ${role} ${suffix}`, `bench-${role}-${suffix}@example.test`, role === 'client' ? `bench-${suffix}` : null],
        )
      ).rows[0].id;
    const adminId = await user('admin');
    const clientId = await user('client');
    // One statement each for the senders and their sessions (a loop of 2,000 inserts took seconds).
    const senderIds = (
      await db.query<{ id: string }>(
        `insert into users (role, staff_role, name, email)
         select 'admin', 'owner', 'Bench sender ' || i || ' ' || $2, 'bench-sender-' || i || '-' || $2 || '@example.test'
         from generate_series(1, $1::int) as i returning id`,
        [SENDERS, suffix],
      )
    ).rows.map((r) => r.id);
    const project = async (name: string) =>
      (await db.query<{ id: string }>(`insert into projects (client_id, name, code) values ($1, $2, $3) returning id`, [clientId, name, `${name}-${suffix}`])).rows[0].id;
    const sessions = async (userIds: string[]) => {
      const tokens = userIds.map(() => randomBytes(32).toString('base64url'));
      await db.query(
        `insert into sessions (user_id, token_hash, expires_at) select u, h, now() + interval '1 day' from unnest($1::uuid[], $2::text[]) as t(u, h)`,
        [userIds, tokens.map(hashToken)],
      );
      return tokens;
    };
    const [adminToken, clientToken] = await sessions([adminId, clientId]);
    return {
      sendProject: await project('BENCH-SEND'),
      listProject: await project('BENCH-LIST'),
      adminToken,
      clientToken,
      senderTokens: await sessions(senderIds),
    };
  } finally {
    await db.end();
  }
}

async function load(options: autocannon.Options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function timed(fn: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await fn();
  const body = await res.text();
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${body.slice(0, 200)}`);
  return performance.now() - started;
}

export default async function messagesBench(base: string): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('bench/messages.ts needs BENCH_DATABASE_URL (set by bench/run.ts)');
  const s = await seed(databaseUrl);
  // Bearer tokens, as API clients send them (no cookie, so no Origin is needed).
  const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  for (let i = 0; i < THREAD_SIZE; i++) {
    const res = await fetch(`${base}/api/messages`, {
      method: 'POST',
      headers: as(i % 2 ? s.adminToken : s.clientToken),
      body: JSON.stringify({ subject: `Subject: Update ${i}`, text: `Progress note number ${i} about the works on site.`, projectId: s.listProject }),
    });
    if (res.status !== 201) throw new Error(`seeding the thread failed: ${res.status}`);
  }

  // The ceiling, measured in the same minute: a bare Fastify answering the same bytes without a database.
  const sample = await (await fetch(`${base}/api/messages/project/${s.listProject}`, { headers: as(s.adminToken) })).text();
  const bare = Fastify({ logger: false });
  bare.post('/send', async () => ({ success: true }));
  bare.get('/list', async (_req, reply) => reply.type('application/json; charset=utf-8').send(sample));
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: '127.0.0.1' });
  const ceiling = {
    send: await load({ url: `http://127.0.0.1:${barePort}/send`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    list: await load({ url: `http://127.0.0.1:${barePort}/list` }),
  };
  await bare.close();

  let nextSender = 0;
  const send = await load({
    url: `${base}/api/messages`,
    method: 'POST',
    headers: as(s.adminToken),
    body: JSON.stringify({ subject: 'Subject: Load', text: 'A message sent under load.', projectId: s.sendProject }),
    requests: [
      {
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...as(s.senderTokens[nextSender++ % s.senderTokens.length]) } }),
      },
    ],
  });
  // The first page of the thread (default page size 100 holds all THREAD_SIZE messages; hasMore false).
  const list = await load({ url: `${base}/api/messages/project/${s.listProject}`, headers: as(s.adminToken) });

  const video = sampleMp4(MESSAGE_ATTACHMENT_MAX_BYTES);
  const multipartMs: number[] = [];
  const jsonMs: number[] = [];
  const base64 = video.toString('base64');
  for (let i = 0; i < UPLOAD_RUNS; i++) {
    multipartMs.push(
      await timed(() => {
        const form = new FormData();
        form.append('name', 'walkthrough.mp4');
        form.append('file', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'walkthrough.mp4');
        return fetch(`${base}/api/messages/upload`, { method: 'POST', headers: { authorization: `Bearer ${s.clientToken}` }, body: form });
      }),
    );
    jsonMs.push(
      await timed(() =>
        fetch(`${base}/api/messages/upload`, {
          method: 'POST',
          headers: as(s.clientToken),
          body: JSON.stringify({ file: base64, type: 'video', name: 'walkthrough.mp4', mimeType: 'video/mp4' }),
        }),
      ),
    );
  }
  const mb = MESSAGE_ATTACHMENT_MAX_BYTES / 1024 / 1024;
  return [
    { name: 'POST /api/messages (send) req/s', value: fmt(send.rps), baseline: fmt(ceiling.send.rps), ratio: fmt(send.rps / ceiling.send.rps, 2) },
    { name: 'POST /api/messages (send) p99 ms', value: fmt(send.p99, 1), baseline: fmt(ceiling.send.p99, 1), ratio: fmt(send.p99 / Math.max(ceiling.send.p99, 0.1), 2) },
    { name: `GET /api/messages/project/:id (${THREAD_SIZE} messages) req/s`, value: fmt(list.rps), baseline: fmt(ceiling.list.rps), ratio: fmt(list.rps / ceiling.list.rps, 2) },
    {
      name: `GET /api/messages/project/:id (${THREAD_SIZE} messages) p99 ms`,
      value: fmt(list.p99, 1),
      baseline: fmt(ceiling.list.p99, 1),
      ratio: fmt(list.p99 / Math.max(ceiling.list.p99, 0.1), 2),
    },
    { name: `50 MB upload, multipart, median of ${UPLOAD_RUNS} (ms)`, value: fmt(median(multipartMs)) },
    { name: '50 MB upload, multipart (MB/s)', value: fmt(mb / (median(multipartMs) / 1000), 1) },
    { name: `50 MB upload, base64 JSON, median of ${UPLOAD_RUNS} (ms)`, value: fmt(median(jsonMs)) },
    { name: '50 MB upload, base64 JSON (MB/s)', value: fmt(mb / (median(jsonMs) / 1000), 1) },
  ];
}
