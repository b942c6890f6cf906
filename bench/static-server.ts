// A static-file server for bench/libraries.ts, run in its own process (never the load generator's),
// serving BENCH_CLIENT_DIR (a client build with its .br/.gz forms, scripts/compress-static.ts):
//   ours:           the product's in-memory files (server/plugins/static-files.ts, decision 155);
//   fastify-static: @fastify/static with preCompressed (a stat and a file stream per request).
// Prints its port on stdout when listening.
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { findStaticFile, loadStaticFiles, sendStaticFile } from '../server/plugins/static-files.ts';

const mode = process.argv[2];
const root = process.env.BENCH_CLIENT_DIR!;
const app = Fastify({ logger: false });
if (mode === 'ours') {
  const files = loadStaticFiles(root);
  app.get('/*', async (request, reply) => {
    const file = findStaticFile(files, request.url.split('?')[0]);
    return file ? sendStaticFile(request, reply, file) : reply.status(404).send();
  });
} else {
  await app.register(fastifyStatic, { root, preCompressed: true });
}
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
