import { createHash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isContentPagePath } from '../../common/paths.ts';
import { SESSION_COOKIE } from './access.ts';

/** Where browsers send violation reports: `report-uri`, and `report-to` through Reporting-Endpoints. */
const CSP_REPORT_PATH = '/api/csp-report';
const CSP_REPORT_GROUP = 'csp';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** A script nonce for one answer (decision 170): 16 random bytes, base64. */
export function newCspNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The Content-Security-Policy of a server-rendered page (decision 170): scripts from this origin
 * and inline scripts that carry this answer's nonce, which only the application writes
 * (app/entry.server.tsx, app/root.tsx). Nothing in it is read from the page, so a script that
 * reached the HTML through content does not run.
 */
export function pagePolicy(nonce: string): string {
  return policyFor([`'nonce-${nonce}'`], '');
}

/**
 * Development only (`npm run dev`, server/plugins/web-dev.ts): the production policy plus what
 * Vite's client needs. Its inline scripts (React Router's HMR runtime and refresh preamble) carry
 * the nonce like any others, and its modules come from this origin; what it adds is the HMR
 * websocket, which `'self'` does not cover in every browser. This is the only place the two differ.
 */
export function developmentPagePolicy(nonce: string): string {
  return policyFor([`'nonce-${nonce}'`], ' ws: wss:');
}

/**
 * The policy of a page rendered once for every visitor, with no nonce: the site pages kept in the
 * site page cache (server/lib/site-pages.ts, decision 289): its inline scripts are hashed. Sound only
 * for those pages: their inline scripts are written by our own code (theme boot, speculation rules,
 * React Router's hydration data), and the content staff write reaches them only through React's
 * escaping and React Router's JSON escaping, never as markup. Never use it for other HTML rendered
 * on request (articles carry sanitised outside HTML: decision 170).
 */
export function prerenderedPagePolicy(html: string): string {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(`'sha256-${createHash('sha256').update(match[1], 'utf8').digest('base64')}'`);
  }
  return policyFor([...hashes], '');
}

function policyFor(scriptSources: string[], extraConnectSrc: string): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${extraConnectSrc}`,
    'frame-src https:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Decision 117: violations are reported to our own endpoint (server/modules/csp-report).
    `report-uri ${CSP_REPORT_PATH}`,
    `report-to ${CSP_REPORT_GROUP}`,
  ].join('; ');
}

/**
 * The headers every answer carries. Also called directly for the few answers Fastify makes before any
 * route or hook runs (a malformed URL: server/app.ts, frameworkErrors).
 * `contentPage`: a public content page (common/paths.ts) goes without Cross-Origin-Opener-Policy
 * (decision 143): it is the same document for everyone, and the browsing-context switch the header
 * forces on a visitor arriving from another site cost 60-240 ms of blocking time in Lighthouse's
 * mobile run. Every other answer keeps `same-origin`.
 */
/**
 * The policy of a stored file served inline (attachments, report and blog images): it runs nothing,
 * even opened directly in a tab. The one allowance is inline style, which the browser's own viewer
 * document for an image or a video uses (Chromium reported style-src-attr violations for every report
 * image opened full size); that document is the browser's, never ours, and scripts stay off (sandbox).
 */
export const STORED_FILE_POLICY = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'";

export function applySecurityHeaders(reply: FastifyReply, production: boolean, contentPage = false): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  reply.header('X-Frame-Options', 'DENY');
  if (!contentPage) reply.header('Cross-Origin-Opener-Policy', 'same-origin');
  reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  reply.header('Reporting-Endpoints', `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`);
  if (production) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  // Not on a 304: its headers replace the stored ones, and a page's stored policy names the nonce of
  // the body the browser keeps (decision 170).
  if (!reply.hasHeader('Content-Security-Policy') && reply.statusCode !== 304) {
    reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
  }
}

async function securityHeadersPlugin(app: FastifyInstance) {
  const production = app.config.isProduction;
  app.addHook('onSend', (request, reply, payload, done) => {
    const contentPage =
      (reply.statusCode === 200 || reply.statusCode === 304) && (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/') && isContentPagePath(request.url.split('?')[0]);
    applySecurityHeaders(reply, production, contentPage);
    // Answers that depend on who is asking (or hand out tokens) must never be stored by a shared
    // cache or the browser: signed-in callers, anything that carried credentials, and all of /api/auth.
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) {
      const personal =
        request.user !== null ||
        request.sessionId !== null ||
        request.headers.authorization !== undefined ||
        request.cookies?.[SESSION_COOKIE] !== undefined ||
        request.url.startsWith('/api/auth/');
      if (personal) reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
