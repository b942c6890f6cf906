// Payment plan figures for npm run bench (issue 26): GET /api/finance/project/:projectId for a small
// plan and a large one, as the client and as staff, and the staff overview, each loaded in
// interleaved rounds (ours, reference, ours, reference, ...) after a warm-up of every target,
// medians of the rounds. The reference is a bare Fastify answering the same bytes the product
// answered (fetched once beforehand), in its own process (bench/reference-server.ts 'bare').
// The plans go straight into the product's database (BENCH_DATABASE_URL, set by bench/run.ts):
// invoices and credit notes are written as drafts with their lines, then issued by an UPDATE (the
// triggers of migration 0033 refuse lines on an issued document and any change to one).
// Selectable alone: BENCH_ONLY=finance.ts npm run bench.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { compare, fmt, startReference } from './interleave.ts';
import { hashToken } from '../server/modules/auth/sessions.service.ts';

interface BenchRow {
  name: string;
  value: string;
  baseline?: string;
  ratio?: string;
}

const CONNECTIONS = Number(process.env.BENCH_FINANCE_CONNECTIONS ?? process.env.BENCH_API_CONNECTIONS ?? 10);
/** The large plan: milestones, issued invoices, lines per invoice; each invoice also has one credit note (one line) and two payments. */
const LARGE = { milestones: 12, invoices: 60, lines: 10, payments: 2, credited: true } as const;
/** The small plan: three milestones, one issued invoice of one line, one payment. */
const SMALL = { milestones: 3, invoices: 1, lines: 1, payments: 1, credited: false } as const;
const VAT_BP = 750;
const DAY_MS = 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** VAT of a net amount by decision 298's rule (the CHECK on the line tables): floor((net × rate + 5000) / 10000). */
const vatOf = (net: bigint, rateBp: number) => (net * BigInt(rateBp) + 5000n) / 10000n;

type Plan = { milestones: number; invoices: number; lines: number; payments: number; credited: boolean };

interface Numbering {
  suffix: string;
  year: number;
  invoiceSeq: number;
  creditSeq: number;
}

/** One project's plan, invoices, lines, credit notes and payments; every document issued. */
async function seedPlan(db: pg.Client, projectId: string, staffId: string, plan: Plan, numbering: Numbering) {
  const shareBp = Math.floor(10_000 / plan.milestones);
  const milestoneIds: string[] = [];
  for (let m = 0; m < plan.milestones; m++) {
    const { rows } = await db.query<{ id: string }>(
      `insert into payment_milestones (project_id, position, name, share_bp, due_date, created_by) values ($1, $2, $3, $4, $5, $6) returning id`,
      [projectId, m + 1, `Stage ${m + 1}`, shareBp, isoDay(Date.now() + (m - plan.milestones / 2) * 30 * DAY_MS), staffId],
    );
    milestoneIds.push(rows[0].id);
  }
  const snapshot = JSON.stringify({ name: 'Bench', address: 'Bench address' });
  for (let i = 0; i < plan.invoices; i++) {
    // Lines: quantity 1..n, unit prices varied; the invoice's totals are the sums of its lines'.
    const lines = Array.from({ length: plan.lines }, (_, l) => {
      const quantity = l + 1;
      const unitPriceKobo = BigInt(50_000_00 + 7_333 * (i + 1) * (l + 1));
      const netKobo = BigInt(quantity) * unitPriceKobo;
      return { quantity, unitPriceKobo, netKobo, vatKobo: vatOf(netKobo, VAT_BP) };
    });
    const net = lines.reduce((a, l) => a + l.netKobo, 0n);
    const vat = lines.reduce((a, l) => a + l.vatKobo, 0n);
    const gross = net + vat;
    const {
      rows: [invoice],
    } = await db.query<{ id: string }>(
      `insert into invoices (project_id, milestone_id, net_kobo, vat_kobo, gross_kobo, notes, created_by, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, now() - ($8::int * interval '1 minute')) returning id`,
      [projectId, milestoneIds[i % milestoneIds.length], net.toString(), vat.toString(), gross.toString(), `Bench invoice ${i + 1}`, staffId, plan.invoices - i],
    );
    const lineIds = (
      await db.query<{ id: string }>(
        `insert into invoice_lines (invoice_id, position, description, quantity, unit_price_kobo, vat_rate_bp, net_kobo, vat_kobo)
         select $1, p, 'Works item ' || p, q, u, $2, n, v from unnest($3::int[], $4::int[], $5::bigint[], $6::bigint[], $7::bigint[]) as t(p, q, u, n, v)
         order by p returning id, position`,
        [
          invoice.id,
          VAT_BP,
          lines.map((_, l) => l + 1),
          lines.map((l) => l.quantity),
          lines.map((l) => l.unitPriceKobo.toString()),
          lines.map((l) => l.netKobo.toString()),
          lines.map((l) => l.vatKobo.toString()),
        ],
      )
    ).rows;
    // Issue dates three days apart, the newest a few days ago: some invoices overdue, some not yet due.
    const issueMs = Date.now() - (plan.invoices - i + 1) * 3 * DAY_MS;
    const issueDate = isoDay(issueMs);
    const seq = ++numbering.invoiceSeq;
    await db.query(
      `update invoices set status = 'issued', number = $2, number_year = $3, number_seq = $4, issue_date = $5, due_date = $6,
         issued_at = $7, issued_by = $8, seller = $9, buyer = $9, bank = $9 where id = $1`,
      [invoice.id, `BENCH-${numbering.suffix}-${String(seq).padStart(4, '0')}`, numbering.year, seq, issueDate, isoDay(issueMs + 30 * DAY_MS), new Date(issueMs), staffId, snapshot],
    );
    if (plan.credited) {
      // Half of the first line credited, with its VAT by the same rule.
      const creditNet = lines[0].netKobo / 2n;
      const creditVat = vatOf(creditNet, VAT_BP);
      const {
        rows: [credit],
      } = await db.query<{ id: string }>(
        `insert into credit_notes (invoice_id, reason, net_kobo, vat_kobo, gross_kobo, created_by) values ($1, 'Bench correction', $2, $3, $4, $5) returning id`,
        [invoice.id, creditNet.toString(), creditVat.toString(), (creditNet + creditVat).toString(), staffId],
      );
      await db.query(`insert into credit_note_lines (credit_note_id, invoice_line_id, position, description, net_kobo, vat_kobo) values ($1, $2, 1, 'Works item 1, half', $3, $4)`, [
        credit.id,
        lineIds[0].id,
        creditNet.toString(),
        creditVat.toString(),
      ]);
      const creditSeq = ++numbering.creditSeq;
      await db.query(`update credit_notes set status = 'issued', number = $2, number_year = $3, number_seq = $4, issue_date = $5, issued_at = $6, issued_by = $7 where id = $1`, [
        credit.id,
        `BENCH-CN-${numbering.suffix}-${String(creditSeq).padStart(4, '0')}`,
        numbering.year,
        creditSeq,
        isoDay(issueMs + DAY_MS),
        new Date(issueMs + DAY_MS),
        staffId,
      ]);
    }
    for (let p = 0; p < plan.payments; p++) {
      await db.query(`insert into payments (invoice_id, amount_kobo, received_on, method, reference, recorded_by) values ($1, $2, $3, 'bank_transfer', $4, $5)`, [
        invoice.id,
        (gross / 4n).toString(),
        isoDay(issueMs + (5 + p * 7) * DAY_MS),
        `BENCH-TRF-${numbering.suffix}-${i + 1}-${p + 1}`,
        staffId,
      ]);
    }
  }
}

async function seed(db: pg.Client) {
  const suffix = randomBytes(4).toString('hex');
  const one = async (text: string, values: unknown[]) => (await db.query<{ id: string }>(text, values)).rows[0].id;
  // The client row founds its own organisation, whose founder is its admin member (finance.read).
  const clientId = await one(`insert into users (role, name, email, username) values ('client', $1, $2, $3) returning id`, [
    `Finance bench client ${suffix}`,
    `finance-bench-${suffix}@example.test`,
    `finance-bench-${suffix}`,
  ]);
  const staffId = await one(`insert into users (role, staff_role, name, email) values ('admin', 'owner', $1, $2) returning id`, [
    `Finance bench owner ${suffix}`,
    `finance-bench-owner-${suffix}@example.test`,
  ]);
  const project = (name: string) =>
    one(`insert into projects (client_id, name, code, budget_kobo, original_budget_kobo) values ($1, $2, $3, $4, $4) returning id`, [clientId, name, `${name}-${suffix}`, '500000000000']);
  const small = await project('FIN-SMALL');
  const large = await project('FIN-LARGE');
  // Numbers continue after whatever this year already holds, so reruns on one database never collide.
  const year = new Date().getUTCFullYear();
  const last = async (table: string) => Number((await db.query<{ n: number }>(`select coalesce(max(number_seq), 0)::int as n from ${table} where number_year = $1`, [year])).rows[0].n);
  const numbering: Numbering = { suffix, year, invoiceSeq: (await last('invoices')) + 1000, creditSeq: (await last('credit_notes')) + 1000 };
  await db.query('begin');
  try {
    await seedPlan(db, small, staffId, SMALL, numbering);
    await seedPlan(db, large, staffId, LARGE, numbering);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
  await db.query('analyze payment_milestones, invoices, invoice_lines, credit_notes, credit_note_lines, payments');
  const session = async (userId: string) => {
    const token = randomBytes(32).toString('base64url');
    await db.query(`insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`, [userId, hashToken(token)]);
    return token;
  };
  return { small, large, clientToken: await session(clientId), staffToken: await session(staffId) };
}

/**
 * Statements the database ran per request, from the database's transaction count (each statement
 * outside a transaction is one): `n` requests one after another, then a wait for the server's
 * connections to report their counts (an idle backend flushes its statistics within 10 s). Other
 * work on the database (tickers) shows up as a fraction; the difference between two plans is what
 * tells a fixed number of queries from one per invoice.
 */
async function statementsPerRequest(databaseUrl: string, url: string, headers: Record<string, string>, n = 200) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const commits = async () => {
    await new Promise((r) => setTimeout(r, 11_000));
    return Number((await db.query<{ n: string }>('select xact_commit::text as n from pg_stat_database where datname = current_database()')).rows[0].n);
  };
  try {
    const before = await commits();
    for (let i = 0; i < n; i++) {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      await res.arrayBuffer();
    }
    // Minus this client's own statement after the first count.
    return (await commits()) - before - 1;
  } finally {
    await db.end();
  }
}

export default async function financeBench(base: string): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('bench/finance.ts needs BENCH_DATABASE_URL (set by bench/run.ts)');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const s = await seed(db).finally(() => db.end());
  const client = { authorization: `Bearer ${s.clientToken}` };
  const staff = { authorization: `Bearer ${s.staffToken}` };
  const targets = {
    largeClient: { path: `/api/finance/project/${s.large}`, headers: client },
    largeStaff: { path: `/api/finance/project/${s.large}`, headers: staff },
    smallClient: { path: `/api/finance/project/${s.small}`, headers: client },
    smallStaff: { path: `/api/finance/project/${s.small}`, headers: staff },
    overview: { path: '/api/finance/overview', headers: staff },
  };
  type Target = keyof typeof targets;
  const bodies = {} as Record<Target, string>;
  for (const [key, t] of Object.entries(targets) as [Target, (typeof targets)[Target]][]) {
    const res = await fetch(`${base}${t.path}`, { headers: t.headers });
    if (!res.ok) throw new Error(`${t.path}: ${res.status} ${await res.text()}`);
    bodies[key] = await res.text();
  }
  // The seed is what the answer holds: 60 issued invoices of 10 lines, each with a credit note and 2 payments.
  const large = JSON.parse(bodies.largeClient) as { invoices: Array<{ lines: unknown[]; creditNotes: unknown[]; payments: unknown[] }>; milestones: unknown[] };
  const count = (pick: (i: (typeof large.invoices)[number]) => unknown[]) => large.invoices.reduce((a, i) => a + pick(i).length, 0);
  if (large.milestones.length !== LARGE.milestones || large.invoices.length !== LARGE.invoices || count((i) => i.lines) !== LARGE.invoices * LARGE.lines) {
    throw new Error(`the large plan answered ${large.milestones.length} milestones, ${large.invoices.length} invoices, ${count((i) => i.lines)} lines`);
  }
  if (count((i) => i.creditNotes) !== LARGE.invoices || count((i) => i.payments) !== LARGE.invoices * LARGE.payments) throw new Error('the large plan lost credit notes or payments');
  const bare = await startReference('bare', Object.fromEntries(Object.entries(bodies).map(([key, body]) => [`/${key}`, body])));
  const kb = (key: Target) => `${fmt(Buffer.byteLength(bodies[key]) / 1024, 1)} kB`;
  const rows: BenchRow[] = [];
  const row = (name: string, ours: number, ref: number) => rows.push({ name, value: fmt(ours), baseline: fmt(ref), ratio: fmt(ours / ref, 2) });
  try {
    const order: Target[] = ['largeClient', 'largeStaff', 'smallClient', 'smallStaff', 'overview'];
    const got = await compare(order.flatMap((key) => [{ url: `${base}${targets[key].path}`, headers: targets[key].headers }, { url: `${bare.base}/${key}` }]), CONNECTIONS);
    const ours = {} as Record<Target, number>;
    const ref = {} as Record<Target, number>;
    order.forEach((key, i) => {
      ours[key] = got[2 * i];
      ref[key] = got[2 * i + 1];
    });
    const largeLabel = `${LARGE.milestones} milestones, ${LARGE.invoices} invoices × ${LARGE.lines} lines + credit note + ${LARGE.payments} payments`;
    row(`GET /api/finance/project/:id as client, ${largeLabel} (${kb('largeClient')}), req/s (ref: bare Fastify, same bytes)`, ours.largeClient, ref.largeClient);
    row(`GET /api/finance/project/:id as staff (owner), same large plan (${kb('largeStaff')}), req/s (ref: bare Fastify, same bytes)`, ours.largeStaff, ref.largeStaff);
    row(`GET /api/finance/project/:id as client, ${SMALL.milestones} milestones, 1 invoice × 1 line (${kb('smallClient')}), req/s (ref: bare Fastify)`, ours.smallClient, ref.smallClient);
    row(`GET /api/finance/project/:id as staff, small plan (${kb('smallStaff')}), req/s (ref: bare Fastify)`, ours.smallStaff, ref.smallStaff);
    if (process.env.BENCH_FINANCE_COUNT_STATEMENTS !== '0') {
      const large = await statementsPerRequest(databaseUrl, `${base}${targets.largeClient.path}`, client);
      const small = await statementsPerRequest(databaseUrl, `${base}${targets.smallClient.path}`, client);
      rows.push({ name: 'finance project, database statements per request as client, large / small plan (200 requests each)', value: `${fmt(large / 200, 2)} / ${fmt(small / 200, 2)}` });
    }
    rows.push({ name: 'finance project cost, large vs small plan, as client (req/s small / req/s large)', value: fmt(ours.smallClient / ours.largeClient, 2) });
    rows.push({ name: 'finance project cost, large vs small plan, as staff (req/s small / req/s large)', value: fmt(ours.smallStaff / ours.largeStaff, 2) });
    row(`GET /api/finance/overview as staff (owner), every issued invoice in the database (${kb('overview')}), req/s (ref: bare Fastify)`, ours.overview, ref.overview);
  } finally {
    await bare.stop();
  }
  return rows;
}
