import type { Access } from '../../server/plugins/access.ts';
import type { TestApp } from './test-app.ts';

/**
 * The expectation table of server/authorization.test.ts. Every route the server registers needs
 * exactly one entry, written in `server/modules/<domain>/<domain>.access-table.test-data.ts` as
 *
 *   export default defineAccess([
 *     { method: 'GET', url: '/api/projects/client/:clientId', access: 'authenticated', fixture: ownProjects },
 *   ]);
 *
 * The test then checks, for every entry: anonymous callers get 401 (non-public routes); clients get
 * 403 on staff routes; a staff session outside ADMIN_ALLOWED_CIDRS gets 403 on every non-public route;
 * a half-signed-in admin (second factor pending) gets 401; each of the five staff roles passes the
 * gate exactly when its role grants the route's permission and gets the layer's 403 otherwise
 * (decision 273); permitted callers with random uuids in the path get 404, never a 5xx; and, with a
 * fixture, client A reaches its own resource while client B's answers 404 exactly like a missing one.
 */
export interface AccessActor {
  id: string;
  name: string;
  /** Session cookie and same-origin Origin, as the browser sends them. */
  headers: { cookie: string; origin: string };
}

export interface AccessFixtureContext {
  t: TestApp;
  clientA: AccessActor;
  clientB: AccessActor;
  /** An owner calling from inside the allowed range (use `remoteAddress: ADMIN_INSIDE` when injecting). */
  admin: AccessActor;
  adminAddress: string;
}

interface AccessFixture {
  /** Path parameters naming a resource that belongs to client A. */
  own: Record<string, string>;
  /** The same kind of resource belonging to client B (checked to answer 404 to client A). */
  other?: Record<string, string>;
  /** Body for the own/other calls when the route needs one. */
  body?: unknown;
}

export interface AccessExpectation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Exactly as registered, with the /api prefix and :params, e.g. '/api/projects/:id/status'. */
  url: string;
  access: Access;
  /**
   * A valid body (JSON) sent by the generic calls, so they reach the resource lookup instead of
   * stopping at validation. Routes without a body leave it out.
   */
  body?: unknown;
  /** Status a permitted caller gets with random uuids in the path; 404 unless said otherwise. */
  missingStatus?: number;
  /** Status client A (or the admin, for admin routes) gets on its own resource; any 2xx unless said. */
  ownStatus?: number;
  /**
   * Status the admin gets on client A's resource when it differs from ownStatus (an `authenticated`
   * route where staff are a party but not the one allowed, such as the sender of a read receipt).
   */
  adminOwnStatus?: number;
  /** Builds resources of client A and client B for the ownership checks. */
  fixture?: (ctx: AccessFixtureContext) => Promise<AccessFixture>;
  /** The route is a second-factor step, so an admin still waiting for the second factor may call it. */
  allowsMfaPending?: boolean;
  /** Why the generic calls cannot run for this route (the declaration is still checked). */
  noCalls?: string;
}

/** Identity helper that gives an entry list its type. */
export function defineAccess(entries: AccessExpectation[]): AccessExpectation[] {
  return entries;
}

/** One entry for each address, alike but for it (a group of routes with one method and one access). */
export function sameAccess(method: AccessExpectation['method'], access: Access, urls: string[]): AccessExpectation[] {
  return urls.map((url) => ({ method, url, access }));
}
