import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../common/errors.ts';
import {
  CSP_REPORT_MAX_BYTES,
  CSP_REPORT_MEDIA_TYPES,
  cspReportBodySchema,
  violationsOf,
} from '../../../common/schemas/csp-report.ts';
import { enforceRateLimit, type RateLimitRule } from '../../lib/rate-limit.ts';
import { visitorLimitKeyOf } from '../auth/admin-network.ts';

/** Reports one address may send (a page with a real problem reports each blocked thing once). */
export const CSP_REPORT_RATE_LIMIT: RateLimitRule = { bucket: 'csp-report', limit: 60, windowMs: 60_000 };
const CSP_REPORT_RATE_LIMITED = (wait: string) => `Too many reports from this address. Try again in ${wait}.`;

/** Violations reported since each server started (keyed by the instance's HTTP server). */
const violationCounts = new WeakMap<object, number>();

/** How many violations this server has been told about since it started. */
export function cspViolationCount(app: FastifyInstance): number {
  return violationCounts.get(app.server) ?? 0;
}

/**
 * What the log line says about the blocked thing: a keyword ('inline', 'eval') as it is, an address
 * cut to its origin and path (a query string can carry tokens), never more than 200 characters.
 */
export function blockedForLog(blockedUri: string): string {
  let out = blockedUri;
  try {
    const url = new URL(blockedUri);
    if (url.protocol === 'http:' || url.protocol === 'https:') out = `${url.origin}${url.pathname}`;
    else out = url.protocol;
  } catch {
    // not an address: a keyword such as 'inline' or 'eval'
  }
  return out.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

/**
 * Decision 117: where browsers send Content-Security-Policy violations (`report-uri` and
 * `report-to` of server/plugins/security-headers.ts). Anonymous, small bodies only, limited per
 * address; each violation is counted and logged as one line (directive and blocked address), the
 * body itself is never echoed or stored.
 */
const cspReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(
    [...CSP_REPORT_MEDIA_TYPES],
    { parseAs: 'string', bodyLimit: CSP_REPORT_MAX_BYTES },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new AppError('BAD_REQUEST', 'The report is not valid JSON.'), undefined);
      }
    },
  );

  app.post(
    '/csp-report',
    {
      bodyLimit: CSP_REPORT_MAX_BYTES,
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Receive Content-Security-Policy violation reports from browsers',
        consumes: [...CSP_REPORT_MEDIA_TYPES, 'application/json'],
        body: cspReportBodySchema,
      },
    },
    async (request, reply) => {
      await enforceRateLimit(app, reply, CSP_REPORT_RATE_LIMIT, visitorLimitKeyOf(request), CSP_REPORT_RATE_LIMITED);
      const violations = violationsOf(request.body);
      if (violations.length > 0) violationCounts.set(app.server, cspViolationCount(app) + violations.length);
      for (const violation of violations) {
        request.log.warn(
          { cspDirective: violation.directive.slice(0, 100), cspBlocked: blockedForLog(violation.blockedUri) },
          'content security policy violation',
        );
      }
      return reply.status(204).send();
    },
  );
};

export default cspReportRoutes;
