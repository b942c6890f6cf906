// A reference server for bench/api.ts, run in its own process (never the load generator's):
//   bare: Fastify answering fixed bytes (BENCH_BODIES: a JSON file of { path: body });
//   pg:   Fastify running one SQL statement per request through plain `pg` (no query builder, no
//         prepared statement: what a hand-written handler does) and answering the same bytes.
// Prints its port on stdout when listening.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const mode = process.argv[2];
const app = Fastify({ logger: false });
const bodies = JSON.parse(readFileSync(process.env.BENCH_BODIES!, 'utf8')) as Record<string, string>;
for (const [path, body] of Object.entries(bodies)) {
  app.get(path, async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
}
if (mode === 'pg') {
  const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
  const queries = JSON.parse(readFileSync(process.env.BENCH_QUERIES!, 'utf8')) as Record<string, { text: string; values: unknown[]; body: string; method?: string }>;
  for (const [path, q] of Object.entries(queries)) {
    app.route({
      method: q.method ?? 'GET',
      url: path,
      handler: async (_req, reply) => {
        const { rows } = await pool.query(q.text, q.values);
        if (rows.length === 0) throw new Error('no row');
        return reply.type('application/json; charset=utf-8').send(q.body);
      },
    });
  }
  app.addHook('onClose', () => pool.end());
}
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
