import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { createServer } from 'vite';
import { notFound } from '../../common/errors.ts';
import { pageLoadContextOf } from './page-context.ts';
import { developmentPagePolicy, newCspNonce } from './security-headers.ts';
import { decodedPath, pageRenderer, sendRouterResponse, toWebRequest } from './web.ts';

// React Router's Vite plugin exposes the server build of the current sources under this id.
const SERVER_BUILD_ID = 'virtual:react-router/server-build';
// Vite's own list (server.fs.deny replaces it rather than adding to it).
const VITE_DEFAULT_DENY = ['.env', '.env.*', '*.{crt,pem,key,p12,pfx,cer,der}', '.npmrc', '.yarnrc.yml', '**/.git/**'];
// Builds (build/, BUILD_DIR=build-* of tests and benchmarks) and test output are nobody's source:
// watching them would reload every open page whenever someone builds.
const NOT_SOURCES = ['**/build/**', '**/build-*/**', '**/test-results/**', '**/playwright-report/**', '**/coverage/**'];

/**
 * Development only (`npm run dev`, server/dev.ts): the web pages through Vite's dev server in
 * middleware mode instead of `build/`. Vite answers its own requests (its client, the app's modules,
 * public/ files) and pushes changes over its websocket on this same HTTP server; every page is
 * server-rendered from the current sources, loaded through Vite on each request. The production
 * web plugin (web.ts) never imports this file, so `npm start` never loads Vite.
 */
async function webDevPlugin(app: FastifyInstance) {
  // The embedded database's files and the uploads (under ./data by default, inside the project):
  // they change all the time, so Vite does not watch them, and it must never serve them.
  const dataDirs = [app.config.DATA_DIR, app.config.embeddedPgDir, app.config.uploadsDir].map(
    (dir) => `${path.resolve(dir)}/**`,
  );
  const sigtermListeners = new Set(process.listeners('SIGTERM'));
  const vite = await createServer({
    server: {
      middlewareMode: true,
      hmr: { server: app.server },
      watch: { ignored: [...NOT_SOURCES, ...dataDirs] },
      fs: { deny: [...VITE_DEFAULT_DENY, ...dataDirs] },
    },
    // Every route's dependencies are found and pre-bundled at start; otherwise the first visit to a
    // portal page makes Vite bundle new ones (a second React for a moment) and reload the page.
    // (React Router's future.unstable_optimizeDeps does the same, but also changes the build's HTML.)
    optimizeDeps: { entries: ['app/root.tsx', 'app/routes/**/*.{ts,tsx}'] },
    appType: 'custom',
  });
  // React Router's plugin starts a second Vite server (its child compiler), and every non-middleware
  // Vite server exits the process on SIGTERM with status 143, cutting short the orderly stop of
  // server/start.ts (which closes Vite as well). Only that stop may answer the signal.
  for (const listener of process.listeners('SIGTERM')) {
    if (!sigtermListeners.has(listener)) process.off('SIGTERM', listener);
  }
  // Before Fastify's server stops accepting: closes the HMR sockets, which would hold it open.
  app.addHook('preClose', async () => {
    await vite.close();
  });

  const handleRequest = createRequestHandler(
    () => vite.ssrLoadModule(SERVER_BUILD_ID) as Promise<ServerBuild>,
    'development',
  );

  const loadContext = pageLoadContextOf(app);
  app.webPages.render = pageRenderer(handleRequest, loadContext, developmentPagePolicy);

  /** Offers the request to Vite's middlewares; true when Vite answered it. */
  function answeredByVite(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const answered = () => resolve(true);
      reply.raw.once('close', answered);
      vite.middlewares(request.raw, reply.raw, (err?: unknown) => {
        reply.raw.off('close', answered);
        if (err) reject(err);
        else resolve(false);
      });
    });
  }

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const urlPath = decodedPath(request.url);
    if (urlPath.startsWith('/api/') || urlPath === '/api') throw notFound(`No API route ${request.method} ${urlPath}`);
    if (await answeredByVite(request, reply)) return reply.hijack();

    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    // Decision 170, as in production: the page's scripts carry this answer's nonce.
    const nonce = newCspNonce();
    try {
      const response = await handleRequest(toWebRequest(request, controller), loadContext(request.log, nonce));
      return await sendRouterResponse(reply, response, developmentPagePolicy(nonce));
    } catch (err) {
      // Stack traces of modules Vite transformed point at the sources, not at its output.
      if (err instanceof Error) vite.ssrFixStacktrace(err);
      throw err;
    }
  }

  // A page load asks for a few hundred modules; logging each one would bury the API's lines.
  for (const url of ['/*', '/']) {
    app.route({ method: ['GET', 'HEAD'], url, logLevel: 'warn', config: { access: 'public' }, handler: serve });
  }
  app.log.info('web pages served through the Vite dev server (hot module replacement on)');
}

export default fp(webDevPlugin, { name: 'web' });
