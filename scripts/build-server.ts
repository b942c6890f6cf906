// Build step (`npm run build`): compiles the server (server/main.ts and what it imports from server/
// and common/) into plain JavaScript under <build>/app, so `npm start` runs it with node alone: no
// TypeScript transpiler at run time (docs/decisions/157). Packages stay in node_modules (external).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { oneByteSource } from './one-byte-source.ts';

const ROOT = process.cwd();

/**
 * A few modules find files next to their source (`new URL('./x.txt', import.meta.url)`, the drizzle
 * folder). In the bundle, import.meta.url is the bundle's own file; this rewrites it, per source
 * file, to that source file's address relative to the bundle, so those paths keep working wherever
 * the project is moved.
 */
function sourceImportMetaUrl(outDir: string): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        const relative = path.relative(outDir, args.path).split(path.sep).join('/');
        const expr = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', expr), loader: 'ts' };
      });
    },
  };
}

/** Compiles server/main.ts into `outDir` (ES modules, code split at the dynamic imports). */
export async function buildServer(outDir: string) {
  const abs = path.resolve(outDir);
  const result = await build({
    entryPoints: { main: path.join(ROOT, 'server', 'main.ts') },
    outdir: abs,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourceImportMetaUrl(abs)],
    // Written below: the JavaScript as one-byte source (esbuild escapes strings, not regular expressions).
    write: false,
  });
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? oneByteSource(file.text) : file.contents);
  }
  return path.join(abs, 'main.js');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const main = await buildServer(path.join(process.env.BUILD_DIR ?? 'build', 'app'));
  console.log(`compiled the server into ${main} (${Date.now() - started} ms)`);
}
