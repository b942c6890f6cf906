import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { notFound } from '../../common/errors.ts';
import { contentSecurityPolicy } from './security-headers.ts';

export const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? 'build');

// Hashed file names never change content, so browsers may keep them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Pre-rendered pages change on deploy; browsers revalidate (cheap 304 with the ETag).
const REVALIDATE = 'public, max-age=0, must-revalidate';

function listFiles(root: string, dir = root, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(root, full, out);
    else out.set('/' + path.relative(root, full).split(path.sep).join('/'), full);
  }
  return out;
}

function toWebRequest(request: FastifyRequest, controller: AbortController): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else headers.set(key, String(value));
  }
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
  return new Request(url, { method: request.method, headers, signal: controller.signal });
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
  const files = listFiles(clientDir);
  // Pre-rendered HTML is fixed, so its policy (hashes of its inline scripts) is computed once.
  const pagePolicies = new Map<string, string>();
  for (const [url, file] of files) {
    if (url.endsWith('.html')) pagePolicies.set(url, contentSecurityPolicy(readFileSync(file, 'utf8')));
  }

  await app.register(fastifyStatic, { root: clientDir, serve: false, etag: true, lastModified: true });

  function staticFileFor(urlPath: string): string | undefined {
    if (files.has(urlPath) && !urlPath.endsWith('.html')) return urlPath;
    const page = urlPath === '/' ? '/index.html' : `${urlPath.replace(/\/$/, '')}/index.html`;
    return files.has(page) ? page : undefined;
  }

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const urlPath = decodeURI(request.url.split('?')[0]);
    if (urlPath.startsWith('/api/') || urlPath === '/api') throw notFound(`No API route ${request.method} ${urlPath}`);
    const file = staticFileFor(urlPath);
    if (file) {
      if (file.endsWith('.html')) {
        reply.header('Content-Security-Policy', pagePolicies.get(file)!);
        reply.header('Cache-Control', REVALIDATE);
      } else {
        reply.header('Cache-Control', file.startsWith('/assets/') ? IMMUTABLE : 'public, max-age=3600');
      }
      return reply.sendFile(file.slice(1), { cacheControl: false });
    }

    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    const response = await handleRequest(toWebRequest(request, controller), { logger: request.log });
    reply.status(response.status);
    for (const [key, value] of response.headers) {
      if (key === 'set-cookie') continue;
      reply.header(key, value);
    }
    for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.startsWith('text/html')) {
      const html = await response.text();
      reply.header('Content-Security-Policy', contentSecurityPolicy(html));
      reply.header('Cache-Control', reply.getHeader('Cache-Control') ?? 'no-store');
      reply.removeHeader('content-length');
      return reply.send(html);
    }
    if (!response.body) return reply.send();
    reply.removeHeader('content-length');
    return reply.send(Readable.fromWeb(response.body as WebReadableStream));
  }

  app.route({ method: ['GET', 'HEAD'], url: '/*', config: { access: 'public' }, handler: serve });
  app.route({ method: ['GET', 'HEAD'], url: '/', config: { access: 'public' }, handler: serve });
  app.log.debug({ files: files.size, built: statSync(serverEntry).mtime }, 'web build loaded');
}

export default fp(webPlugin, { name: 'web' });
