import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthenticated } from '../../common/errors.ts';
import type { UserRole } from '../db/schema/users.ts';
import { isMemberPermission, isPermission, memberGrants, roleGrants, type MemberPermission, type Permission } from '../../common/permissions.ts';
import { resolveSession, type JoinedSessionRead, type SessionRow, type SessionUser } from '../modules/auth/sessions.service.ts';
import { ADMIN_ADDRESS_REFUSED, isAdminAddressAllowed } from '../modules/auth/admin-network.ts';

/**
 * Who may call a route. Every route must declare one; registration fails otherwise.
 * - public: anyone
 * - authenticated: any signed-in user (client or admin)
 * - client: signed-in clients only
 * - admin: signed-in staff of any role, from an allowed address (see admin-network.ts)
 * - { staff: permission }: as admin, and the staff role must grant the permission (decision 272)
 * - { client: permission }: as client, and the member role must grant the permission (decision 279)
 */
const ACCESS_LEVELS = ['public', 'authenticated', 'client', 'admin'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
type StaffAccess = { staff: Permission };
type ClientAccess = { client: MemberPermission };
export type Access = AccessLevel | StaffAccess | ClientAccess;

/** Whether a route's declared access is one this layer knows (a level, or exactly one known permission). */
export function isKnownAccess(access: unknown): access is Access {
  if (typeof access === 'string') return ACCESS_LEVELS.includes(access as AccessLevel);
  if (typeof access !== 'object' || access === null) return false;
  const keys = Object.keys(access);
  if (keys.length !== 1) return false;
  if (keys[0] === 'client') return isMemberPermission((access as ClientAccess).client);
  return keys[0] === 'staff' && isPermission((access as StaffAccess).staff);
}

/** The level a declared access is judged at before its permission: a staff permission is an admin route first, a member permission a client route. */
export const accessLevel = (access: Access): AccessLevel => (typeof access === 'string' ? access : 'client' in access ? 'client' : 'admin');

interface RegisteredRoute {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Lets an admin session that still waits for its second factor call this route (only the
     * second-factor steps themselves set it).
     */
    allowMfaPending?: boolean;
    /**
     * The route's own read, run in the same statement as the session's (decision 171). Its rows
     * reach the route as `request.joinedRead` only when a user is let through.
     */
    joinedSessionRead?: JoinedSessionRead;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
    /** The rows of the route's joinedSessionRead and the values it ran with; null when it did not run. */
    joinedRead: { values: unknown[]; rows: SessionRow[] } | null;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the authorisation test. */
    routeRegistry: RegisteredRoute[];
    /** Extra admin checks (network range) plugged in by the accounts module. */
    adminGate: (request: FastifyRequest) => Promise<void> | void;
  }
}

export const SESSION_COOKIE = 'sid';

/** The answers of this layer when it refuses a caller (the authorisation test tells them apart from a route's own). */
export const DENIED = {
  signIn: 'Please sign in to continue',
  mfaPending: 'Enter the code from your authenticator app to finish signing in',
  role: 'You do not have access to this resource',
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_REFUSED = 'This request did not come from this website, so it was refused. Reload the page and try again.';

/**
 * CSRF defence: a state-changing request that carries the session cookie must say, in Origin, that
 * it comes from our own pages (PUBLIC_URL's origin, or the host the request was sent to). Browsers
 * always send Origin on such requests and a page cannot forge it. Requests authenticated by a
 * Bearer token only are exempt (a browser never adds that header on its own). A foreign Origin is
 * refused even without a cookie, which also stops login CSRF.
 */
function assertSameOrigin(app: FastifyInstance, request: FastifyRequest, usesCookie: boolean) {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (usesCookie) throw forbidden(CROSS_SITE_REFUSED);
    return;
  }
  // Decision 113: the Origin header exactly as one of the configured origins, scheme and port
  // included; never compared with the request's own Host (which the caller chooses).
  if (app.config.allowedOrigins.includes(origin)) return;
  throw forbidden(CROSS_SITE_REFUSED); // another site, another scheme, 'null' and other opaque origins
}

function tokenFrom(request: FastifyRequest): { token: string; viaCookie: boolean } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice('Bearer '.length).trim();
    if (token) return { token, viaCookie: false };
  }
  const cookie = request.cookies?.[SESSION_COOKIE];
  return cookie ? { token: cookie, viaCookie: true } : null;
}

/** Roles allowed by each access level that needs a signed-in user. */
const ROLES: Record<Exclude<AccessLevel, 'public'>, readonly UserRole[]> = {
  authenticated: ['admin', 'client'],
  client: ['client'],
  admin: ['admin'],
};

async function accessPlugin(app: FastifyInstance) {
  app.decorate('routeRegistry', [] as RegisteredRoute[]);
  // The admin network check (ADMIN_ALLOWED_CIDRS, judged on the real peer or a trusted proxy's X-Forwarded-For).
  app.decorate('adminGate', ((request: FastifyRequest) => {
    if (!isAdminAddressAllowed(app, request)) throw forbidden(ADMIN_ADDRESS_REFUSED);
  }) as FastifyInstance['adminGate']);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('joinedRead', null);

  app.addHook('onRoute', (route) => {
    // Routes that plugins register for themselves (the API docs) are public by nature.
    if (!route.config?.access && route.url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: 'public' };
    }
    const access = route.config?.access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!isKnownAccess(access)) {
      throw new Error(`Route ${methods.join(',')} ${route.url} does not declare who may call it (config.access)`);
    }
    for (const method of methods) {
      if (method === 'HEAD') continue; // Fastify adds HEAD beside each GET; it answers as the GET does.
      app.routeRegistry.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const declared = config?.access ?? 'public';
    const access = accessLevel(declared);
    const credentials = tokenFrom(request);
    assertSameOrigin(app, request, credentials?.viaCookie ?? false);
    let mfaPending = false;
    if (credentials) {
      // A route that reads along with the session (decision 171) gets its rows from the same
      // statement; the session is judged exactly as when it is read alone.
      const joined = config?.joinedSessionRead;
      const values = joined ? joined.values(request) : null;
      const session = await resolveSession(app, credentials.token, values ? { statement: joined!.statement, values } : undefined);
      if (session) {
        request.sessionId = session.id;
        mfaPending = session.user.mfaPending;
        // A half-signed-in admin is nobody, except on the second-factor steps (and logout, by session id).
        if (!mfaPending || config?.allowMfaPending) {
          request.user = session.user;
          if (values && session.rows) request.joinedRead = { values, rows: session.rows };
        }
      }
    }
    if (access === 'public') {
      // Issue 23: outside the admin networks a staff session has no staff rights anywhere, so on a
      // public route it is nobody (the health detail, for one, is decided on request.user).
      if (request.user?.role === 'admin' && !isAdminAddressAllowed(app, request)) request.user = null;
      return;
    }
    if (access === 'admin') await app.adminGate(request);
    if (!request.user) {
      if (mfaPending) throw new AppError('UNAUTHENTICATED', DENIED.mfaPending);
      throw unauthenticated(DENIED.signIn);
    }
    if (!ROLES[access].includes(request.user.role)) throw forbidden(DENIED.role);
    if (typeof declared !== 'string') {
      const granted = 'client' in declared ? memberGrants(request.user.memberRole, declared.client) : roleGrants(request.user.staffRole, declared.staff);
      if (!granted) throw forbidden(DENIED.role);
    }
    // An admin session is only usable from the admin networks, whatever route it calls.
    if (request.user.role === 'admin' && access !== 'admin') await app.adminGate(request);
  });
}

export default fp(accessPlugin, { name: 'access' });
