import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { oneByteSource } from './scripts/one-byte-source.ts';

/**
 * React Router's package.json points every import at its development build (remix-run/react-router
 * #12532, #14102), which keeps the dev-only warnings and their messages in the browser bundle. The
 * production build beside it differs only by ENABLE_DEV_WARNINGS = false. The browser build takes it
 * (decision 144); the server build keeps the package's choice. Every import of the package is
 * redirected, so the browser never holds two copies of the router.
 */
function reactRouterProductionBuild(): Plugin {
  return {
    name: 'react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    async resolveId(source, importer, options) {
      if (source !== 'react-router' && source !== 'react-router/dom') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      return { ...resolved, id: resolved.id.replace('/react-router/dist/development/', '/react-router/dist/production/') };
    },
  };
}

/**
 * `import { Menu, X } from 'lucide-react'` becomes one import per icon file (`lucide-react/icons/menu`),
 * in the browser build. Through the package's index every icon looked imported by every module that
 * imports any icon, so the chunk groups below could not tell which icons the root route uses
 * (decision 145). Tree-shaking already dropped the unused ones; the output code is the same.
 */
function lucideIconFiles(): Plugin {
  const index = createRequire(import.meta.url).resolve('lucide-react').replace(/cjs[\\/]lucide-react\.js$/, 'esm/lucide-react.mjs');
  const fileOf = new Map<string, string>();
  for (const m of readFileSync(index, 'utf8').matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g)) {
    for (const name of m[1].matchAll(/default as (\w+)/g)) fileOf.set(name[1], m[2]);
  }
  return {
    name: 'lucide-icon-files',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    transform: {
      filter: { id: /[\\/]app[\\/].*\.tsx?$/, code: 'lucide-react' },
      handler(code) {
        return code.replace(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["'];?/g, (whole, list: string) => {
          const names = list.split(',').map((n) => n.trim()).filter(Boolean).map((n) => n.split(/\s+as\s+/));
          if (!names.every(([name]) => fileOf.has(name))) return whole;
          return names.map(([name, local = name]) => `import ${local} from 'lucide-react/icons/${fileOf.get(name)}';`).join('');
        });
      },
    },
  };
}

/** The pages' server build as one-byte source: half the heap for its text in the server (decision 301). */
function serverBuildOneByteSource(): Plugin {
  return {
    name: 'server-build-one-byte-source',
    apply: 'build',
    enforce: 'post',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') chunk.code = oneByteSource(chunk.code);
    },
  };
}

const ROOT_ROUTE = fileURLToPath(new URL('./app/root.tsx', import.meta.url));
const isClientEntry = (id: string) => /[\\/]entry\.client\.[jt]sx?$/.test(id);
const isRootRoute = (id: string) => id === ROOT_ROUTE;

/**
 * Decision 145: every hydrated page loads the client entry and the root route, so they and whatever
 * they import statically go in two chunks: the framework (the entry, React DOM, React, React Router)
 * and the site's shell (root, header, footer, toasts, chat button and the small modules they share
 * with the pages). Without these groups rolldown cut them into a score of small chunks, one per set
 * of routes using them. Dynamic imports (the chat panel) stay chunks of their own.
 */
function hydratedPageChunks(): Rolldown.CodeSplittingGroup[] {
  const memo = new Map<string, Map<string, boolean>>();
  /** Whether `id` is imported, directly or through other static imports, by a module `target` names. */
  function staticallyFrom(id: string, target: (id: string) => boolean, key: string, ctx: Rolldown.ChunkingContext): boolean {
    let seen = memo.get(key);
    if (!seen) memo.set(key, (seen = new Map()));
    const known = seen.get(id);
    if (known !== undefined) return known;
    // An import cycle answers false while it is walked; at worst a module stays out of the group
    // (rolldown's own splitting places it), never a wrong bundle.
    seen.set(id, false);
    const info = ctx.getModuleInfo(id);
    const answer = target(id) || (info?.importers ?? []).some((importer) => staticallyFrom(importer, target, key, ctx));
    seen.set(id, answer);
    return answer;
  }
  return [
    { name: (id, ctx) => (staticallyFrom(id, isClientEntry, 'entry', ctx) ? 'framework' : null), priority: 2 },
    { name: (id, ctx) => (staticallyFrom(id, isRootRoute, 'root', ctx) ? 'site' : null), priority: 1 },
  ];
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouterProductionBuild(), lucideIconFiles(), serverBuildOneByteSource(), tailwindcss(), reactRouter()],
  build: {
    assetsInlineLimit: 0,
    ...(isSsrBuild ? {} : { rollupOptions: { output: { codeSplitting: { groups: hydratedPageChunks() } } } }),
  },
  // The content pages' enhancement entry is imported with ?worker&url (app/root.tsx): an ES module
  // bundle of its own, so its lazy imports (the chat panel) stay separate chunks.
  worker: { format: 'es' },
  // The server build bundles the few dozen icons the pages use instead of loading lucide-react's
  // whole CommonJS build (1.3 MB, every icon) into the server at start (decision 180).
  ssr: { noExternal: ['lucide-react'] },
}));
