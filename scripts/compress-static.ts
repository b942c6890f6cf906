// Build step (`npm run build`): writes the brotli (.br) and gzip (.gz) form of every compressible
// file of the client build beside it, so the server reads them instead of compressing at each start
// (docs/decisions/155). Files that would not shrink get no compressed form.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Extensions worth compressing (text); images and fonts are compressed already. */
export const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.data', '.svg', '.xml', '.txt', '.webmanifest']);
/** Below this size the headers outweigh the saving. */
export const COMPRESS_MIN_BYTES = 512;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

export async function brotliOf(body: Buffer) {
  return brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

export async function gzipOf(body: Buffer) {
  return gzipAsync(body, { level: 9 });
}

/** Compresses every file of `clientDir` that gains from it; answers how many files got compressed forms. */
export async function compressStaticFiles(clientDir: string): Promise<number> {
  const targets = walk(clientDir).filter((f) => COMPRESSIBLE.has(path.extname(f).toLowerCase()));
  let done = 0;
  // zlib's asynchronous calls run on libuv's thread pool: a few at a time keeps every core busy.
  const queue = [...targets];
  async function worker() {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const body = readFileSync(file);
      if (body.length <= COMPRESS_MIN_BYTES) continue;
      const [br, gz] = await Promise.all([brotliOf(body), gzipOf(body)]);
      if (br.length < body.length) writeFileSync(`${file}.br`, br);
      if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      done++;
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker));
  return done;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const clientDir = path.resolve(process.env.BUILD_DIR ?? 'build', 'client');
  const started = Date.now();
  const count = await compressStaticFiles(clientDir);
  console.log(`compressed ${count} static files in ${clientDir} (${Date.now() - started} ms)`);
}
