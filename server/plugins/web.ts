import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { badRequest, notFound } from '../../common/errors.ts';
import { ARTICLES_CONTEXT_KEY } from '../../common/schemas/articles.ts';
import { SETUP_CONTEXT_KEY } from '../../common/schemas/setup.ts';
import { setupReader } from '../modules/setup/setup.service.ts';
import { PAGE_CACHE_UNTIL_HEADER, sendCachedPage } from '../lib/page-cache.ts';
import { contentSecurityPolicy } from './security-headers.ts';
import { findStaticFile, loadStaticFiles, sendStaticFile, totalStaticBytes } from './static-files.ts';

export const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? 'build');

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

export function toWebRequest(request: FastifyRequest, controller: AbortController): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else headers.set(key, String(value));
  }
  const url = new URL(request.url, `${request.protocol}://${webHostOf(request)}`);
  return new Request(url, { method: request.method, headers, signal: controller.signal });
}

/** Sends React Router's answer through Fastify; HTML gets the policy that `csp` writes for it. */
export async function sendRouterResponse(reply: FastifyReply, response: Response, csp: (html: string) => string) {
  reply.status(response.status);
  for (const [key, value] of response.headers) {
    if (key === 'set-cookie') continue;
    reply.header(key, value);
  }
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/html')) {
    const html = await response.text();
    reply.header('Content-Security-Policy', csp(html));
    reply.header('Cache-Control', reply.getHeader('Cache-Control') ?? 'no-store');
    reply.removeHeader('content-length');
    return reply.send(html);
  }
  if (!response.body) return reply.send();
  reply.removeHeader('content-length');
  return reply.send(Readable.fromWeb(response.body as WebReadableStream));
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

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const urlPath = decodedPath(request.url);
    if (urlPath.startsWith('/api/') || urlPath === '/api') throw notFound(`No API route ${request.method} ${urlPath}`);
    const file = findStaticFile(files, urlPath);
    if (file) return sendStaticFile(request, reply, file);

    // Server-rendered pages that said how long they stay valid (the articles pages) come from memory.
    const cached = app.pageCache.get(request.url, app.clock.now());
    if (cached) return sendCachedPage(request, reply, cached);

    const generation = app.pageCache.generation;
    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    const response = await handleRequest(toWebRequest(request, controller), { logger: request.log, [ARTICLES_CONTEXT_KEY]: app.articles, [SETUP_CONTEXT_KEY]: setupReader(app) });
    const until = response.headers.get(PAGE_CACHE_UNTIL_HEADER);
    response.headers.delete(PAGE_CACHE_UNTIL_HEADER);
    if (until && request.method === 'GET' && (response.headers.get('content-type') ?? '').startsWith('text/html')) {
      const html = await response.text();
      const page = app.pageCache.set(request.url, { status: response.status, html, csp: contentSecurityPolicy(html), until: new Date(until), generation });
      return sendCachedPage(request, reply, page);
    }
    return sendRouterResponse(reply, response, contentSecurityPolicy);
  }

  app.route({ method: ['GET', 'HEAD'], url: '/*', config: { access: 'public' }, handler: serve });
  app.route({ method: ['GET', 'HEAD'], url: '/', config: { access: 'public' }, handler: serve });
  app.log.debug({ files: files.size, bytes: totalStaticBytes(files) }, 'web build loaded');
}

export default fp(webPlugin, { name: 'web' });
