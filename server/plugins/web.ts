import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { chromeFor, SITE_PAGE_PATHS } from '../../common/paths.ts';
import { badRequest, notFound } from '../../common/errors.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { PAGE_CACHE_UNTIL_HEADER, PageCache, sendCachedPage, type CachedPage } from '../lib/page-cache.ts';
import type { PageRenderer } from '../lib/web-pages.ts';
import { SitePages } from '../lib/site-pages.ts';
import { pageLoadContextOf, type PageLoadContext, type PageLoadContextBuilder } from './page-context.ts';
import { newCspNonce, pagePolicy } from './security-headers.ts';
import { findStaticFile, loadStaticFiles, sendStaticFile } from './static-files.ts';

const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? 'build');

// A host name or address with an optional port: nothing else belongs in a Host header.
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's Host, or a 400 when it is not a host name (it would break the page's URL: 500 before). */
function webHostOf(request: FastifyRequest): string {
  const host = request.headers.host;
  if (host === undefined || host === '') return 'localhost';
  if (!HOST_HEADER.test(host)) throw badRequest('The Host header of the request is not valid');
  return host;
}

/** The decoded path of a page request; a malformed percent-escape is a 400, not a 500. */
export function decodedPath(url: string): string {
  try {
    return decodeURI(url.split('?')[0]);
  } catch {
    throw badRequest('The address is not valid');
  }
}

/**
 * The request as React Router takes it; `asGetOf` makes it a GET of another path of the site (a
 * form post answered by a page: the body's own headers are left out).
 */
export function toWebRequest(request: FastifyRequest, controller: AbortController, asGetOf?: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (asGetOf && (key === 'content-type' || key === 'content-length' || key === 'transfer-encoding')) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else headers.set(key, String(value));
  }
  const url = new URL(asGetOf ?? request.url, `${request.protocol}://${webHostOf(request)}`);
  return new Request(url, { method: asGetOf ? 'GET' : request.method, headers, signal: controller.signal });
}

/** React Router's request handler, as the web plugins call it. */
export type PageHandler = (request: Request, context: PageLoadContext) => Promise<Response>;

/**
 * The renderer of `app.webPages` (server/lib/web-pages.ts) over a React Router request handler:
 * the page is rendered on request (never from the page cache, never kept) and sent with its policy.
 */
export function pageRenderer(handleRequest: PageHandler, loadContext: PageLoadContextBuilder, policy: (nonce: string) => string): PageRenderer {
  return async (request, reply, page) => {
    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    // Decision 170: this answer's own script nonce.
    const nonce = newCspNonce();
    let response: Response;
    try {
      response = await handleRequest(toWebRequest(request, controller, page.path), loadContext(request.log, nonce, page.context));
    } catch (err) {
      request.log.error({ err }, `the page ${page.path} could not be rendered`);
      return false;
    }
    if (response.status !== page.status || !(response.headers.get('content-type') ?? '').startsWith('text/html')) {
      await response.body?.cancel();
      return false;
    }
    await sendRouterResponse(reply, response, policy(nonce));
    return true;
  };
}

/**
 * Sends React Router's answer through Fastify; HTML gets `policy`, the one of the nonce the page was
 * rendered with (decision 170: never a policy read from the HTML).
 */
export async function sendRouterResponse(reply: FastifyReply, response: Response, policy: string) {
  reply.status(response.status);
  for (const [key, value] of response.headers) {
    if (key === 'set-cookie') continue;
    reply.header(key, value);
  }
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/html')) {
    const html = await response.text();
    reply.header('Content-Security-Policy', policy);
    reply.header('Cache-Control', reply.getHeader('Cache-Control') ?? 'no-store');
    reply.removeHeader('content-length');
    return reply.send(html);
  }
  if (!response.body) return reply.send();
  reply.removeHeader('content-length');
  return reply.send(Readable.fromWeb(response.body as WebReadableStream));
}

/** The route table of a build as React Router's matcher takes it (the build keeps it flat). */
export function routeTree(build: ServerBuild): RouteObject[] {
  const children = new Map<string | undefined, NonNullable<ServerBuild['routes'][string]>[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    list.push(route);
    children.set(route.parentId, list);
  }
  const make = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((r) =>
      r.index
        ? { id: r.id, index: true, caseSensitive: r.caseSensitive }
        : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: make(r.id) },
    );
  return make(undefined);
}

// Where the one not-found document is rendered from; any path that only the catch-all route matches
// gets the same document (its loader data is the path, which the page does not show).
const NOT_FOUND_RENDER_PATH = '/__not-found';
const NOT_FOUND_CHROME = JSON.stringify(chromeFor(NOT_FOUND_RENDER_PATH));
const SITE_PAGES = new Set<string>(SITE_PAGE_PATHS);
/** How long after the server listens the site pages start rendering in the background. */
const SITE_PAGES_WARM_DELAY_MS = 1000;

/** The site page a URL path names ('/about/' is '/about'), or undefined. */
function sitePagePath(urlPath: string): string | undefined {
  const path = urlPath.length > 1 ? urlPath.replace(/\/$/, '') : urlPath;
  return SITE_PAGES.has(path) ? path : undefined;
}
// Route discovery asks for the routes of the paths a page links to: the answer depends only on the
// build and the query, so it is kept; query strings are the visitor's to choose, hence the bound.
const MANIFEST_PATH = '/__manifest';
const MANIFEST_CACHE_MAX = 1000;
const MANIFEST_CACHE_MAX_BYTES = 8 * 1024 * 1024;
// Paths are the visitor's to choose too: counted in entries and in bytes (a path may be 16 KB long).
export const ROUTE_MATCH_CACHE_MAX = 5000;
export const ROUTE_MATCH_CACHE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Whether nothing but the catch-all (not-found) route matches a path. matchRoutes ranks the whole
 * route table on every call (about a millisecond), so answers are kept per path, within the bounds
 * above however many distinct paths are asked for (decision 182).
 */
export function catchAllMatcher(routes: RouteObject[], catchAllId: string | undefined) {
  const kept = new BoundedMap<boolean>({ maxEntries: ROUTE_MATCH_CACHE_MAX, maxBytes: ROUTE_MATCH_CACHE_MAX_BYTES });
  return {
    kept,
    onlyCatchAll(urlPath: string): boolean {
      if (!catchAllId) return false;
      let answer = kept.get(urlPath);
      if (answer === undefined) {
        answer = matchRoutes(routes, urlPath)?.at(-1)?.route.id === catchAllId;
        kept.set(urlPath, answer);
      }
      return answer;
    },
  };
}

/** Serves the React Router build: static assets, pre-rendered pages, then server rendering. */
async function webPlugin(app: FastifyInstance) {
  const clientDir = path.join(BUILD_DIR, 'client');
  const serverEntry = path.join(BUILD_DIR, 'server', 'index.js');
  if (!existsSync(serverEntry)) {
    throw new Error(`The web build is missing (${serverEntry}). Run "npm run build" first.`);
  }
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handleRequest = createRequestHandler(build, app.config.isProduction ? 'production' : 'development');
  const files = loadStaticFiles(clientDir);
  const routes = routeTree(build);
  const catchAll = Object.values(build.routes).find((r) => r?.path === '*' && r.parentId === 'root');
  const loadContext = pageLoadContextOf(app);
  // The not-found loader's own log line is for requests; each request logs its path below instead.
  const quietLog = app.log.child({}, { level: 'silent' });

  const notFoundMatcher = catchAllMatcher(routes, catchAll?.id);

  // The not-found document: rendered once per process (one build) on first need, then sent from memory.
  let notFoundPage: Promise<CachedPage | null> | undefined;
  const notFoundStore = new PageCache();
  function renderNotFound(request: FastifyRequest): Promise<CachedPage | null> {
    notFoundPage ??= (async () => {
      const url = new URL(NOT_FOUND_RENDER_PATH, `${request.protocol}://localhost`);
      // Rendered with a nonce of its own, which the store cuts out: each answer gets a fresh one.
      const nonce = newCspNonce();
      const response = await handleRequest(new Request(url), loadContext(quietLog, nonce));
      if (response.status !== 404 || !(response.headers.get('content-type') ?? '').startsWith('text/html')) return null;
      const html = await response.text();
      return notFoundStore.set('not-found', { status: 404, html, nonce, until: new Date(8.64e15) });
    })().catch((err) => {
      notFoundPage = undefined;
      throw err;
    });
    return notFoundPage;
  }

  // Decision 289: the content pages, rendered from the published snapshot once per change and kept.
  // Rendered with no nonce (the same bytes for every visitor, like a file pre-rendered at build
  // time): their inline scripts are allowed by hash.
  const sitePages = new SitePages(async (pagePath) => {
    // A build without the page (a test's stand-in) answers it as any other path.
    if (notFoundMatcher.onlyCatchAll(pagePath)) return null;
    const response = await handleRequest(new Request(new URL(pagePath, 'http://localhost')), loadContext(quietLog, undefined));
    if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('text/html')) {
      await response.body?.cancel();
      return null;
    }
    return response.text();
  }, app.log);
  app.decorate('sitePages', sitePages);
  let closed = false;
  let listening = false;
  let warming: Promise<void> | null = null;
  let warmAgain = false;
  /**
   * Renders every site page in the background, so the next visitor gets memory-speed HTML: one page
   * after another, with a turn of the event loop between them for the requests that came meanwhile.
   */
  function warmSitePages() {
    if (!listening || closed) return;
    if (warming) {
      warmAgain = true;
      return;
    }
    warming = (async () => {
      do {
        warmAgain = false;
        for (const pagePath of SITE_PAGE_PATHS) {
          if (closed || warmAgain) break;
          await sitePages.get(pagePath);
          await new Promise((resolve) => setImmediate(resolve));
        }
      } while (warmAgain && !closed);
    })().finally(() => {
      warming = null;
    });
  }
  // Every page shows the company profile (header, footer, JSON-LD): any change empties every page.
  const unsubscribe = app.publishedContent.subscribe(() => {
    sitePages.clear();
    notFoundPage = undefined;
    app.pageCache.clear();
    warmSitePages();
  });
  // Decision 301: not at ready (the snapshot's first load, above, renders nothing) but a moment after
  // the server listens, so its first requests (health checks, the API) do not wait behind ten page
  // renders; a process that never listens (a command-line task) renders none. A visitor sooner than
  // that gets the page rendered for them, as after a publish.
  let warmTimer: NodeJS.Timeout | undefined;
  app.addHook('onListen', async () => {
    warmTimer = setTimeout(() => {
      listening = true;
      warmSitePages();
    }, SITE_PAGES_WARM_DELAY_MS);
    warmTimer.unref();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(warmTimer);
    unsubscribe();
    await warming;
  });

  type ManifestAnswer = { status: number; headers: [string, string][]; body: Buffer; br?: Buffer; gzip?: Buffer };
  const manifests = new BoundedMap<ManifestAnswer>({
    maxEntries: MANIFEST_CACHE_MAX,
    maxBytes: MANIFEST_CACHE_MAX_BYTES,
    sizeOf: (a) => a.body.length + (a.br?.length ?? 0) + (a.gzip?.length ?? 0) + a.headers.reduce((n, [k, v]) => n + 2 * (k.length + v.length), 0),
  });
  async function serveManifest(request: FastifyRequest, reply: FastifyReply) {
    let kept = manifests.get(request.url);
    if (!kept) {
      // Route discovery runs no loader and renders no script: its nonce is never used.
      const response = await handleRequest(toWebRequest(request, new AbortController()), loadContext(request.log, newCspNonce()));
      const answer: ManifestAnswer = { status: response.status, headers: [...response.headers], body: Buffer.from(await response.arrayBuffer()) };
      if (response.status !== 200) return sendManifest(request, reply, answer);
      // Kept with its compressed forms, like the cached pages: no compression work on a repeat.
      answer.br = brotliCompressSync(answer.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } });
      answer.gzip = gzipSync(answer.body, { level: 9 });
      manifests.set(request.url, answer);
      kept = answer;
    }
    return sendManifest(request, reply, kept);
  }
  function sendManifest(request: FastifyRequest, reply: FastifyReply, answer: ManifestAnswer) {
    reply.status(answer.status);
    for (const [key, value] of answer.headers) if (key !== 'content-length' && key !== 'set-cookie') reply.header(key, value);
    if (answer.status === 204) return reply.send();
    let body = answer.body;
    if (answer.br && answer.gzip) {
      reply.header('Vary', 'Accept-Encoding');
      const accepts = String(request.headers['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accepts)) {
        reply.header('Content-Encoding', 'br');
        body = answer.br;
      } else if (/\bgzip\b/.test(accepts)) {
        reply.header('Content-Encoding', 'gzip');
        body = answer.gzip;
      }
    }
    reply.header('Content-Length', body.length);
    return reply.send(body);
  }

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const urlPath = decodedPath(request.url);
    if (urlPath.startsWith('/api/') || urlPath === '/api') throw notFound(`No API route ${request.method} ${urlPath}`);
    const file = findStaticFile(files, urlPath);
    if (file) return sendStaticFile(request, reply, file);
    if (urlPath === MANIFEST_PATH && request.method === 'GET') return serveManifest(request, reply);
    const sitePage = sitePagePath(urlPath);
    if (sitePage) {
      webHostOf(request);
      const page = await sitePages.get(sitePage);
      if (page) return sendStaticFile(request, reply, page);
    }

    // Server-rendered pages that said how long they stay valid (the articles pages) come from memory.
    const cached = app.pageCache.get(request.url, app.clock.now());
    if (cached) return sendCachedPage(request, reply, cached);

    if (notFoundMatcher.onlyCatchAll(urlPath) && JSON.stringify(chromeFor(urlPath)) === NOT_FOUND_CHROME) {
      webHostOf(request);
      const page = await renderNotFound(request);
      if (page) {
        // Not a warning: the request line already says 404; a scanner's probes must not fill the warnings.
        request.log.debug({ path: urlPath }, 'page not found');
        return sendCachedPage(request, reply, page);
      }
    }

    const generation = app.pageCache.generation;
    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    // Decision 170: the page's inline scripts carry this answer's nonce, and its policy allows only that.
    const nonce = newCspNonce();
    const response = await handleRequest(toWebRequest(request, controller), loadContext(request.log, nonce));
    const until = response.headers.get(PAGE_CACHE_UNTIL_HEADER);
    response.headers.delete(PAGE_CACHE_UNTIL_HEADER);
    if (until && request.method === 'GET' && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
      const html = await response.text();
      const page = app.pageCache.set(request.url, { status: response.status, html, nonce, until: new Date(until), generation });
      return sendCachedPage(request, reply, page);
    }
    return sendRouterResponse(reply, response, pagePolicy(nonce));
  }

  app.webPages.render = pageRenderer(handleRequest, loadContext, pagePolicy);
  app.route({ method: ['GET', 'HEAD'], url: '/*', config: { access: 'public' }, handler: serve });
  app.route({ method: ['GET', 'HEAD'], url: '/', config: { access: 'public' }, handler: serve });
  // Listed, not read: each file is read by its first request (decision 301).
  app.log.debug({ files: files.size }, 'web build loaded');
}

export default fp(webPlugin, { name: 'web' });
