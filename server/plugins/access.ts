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
 * - authenticated: any signed-in user of either side, for one's own account only (me, password)
 * - client: signed-in clients only
 * - staff: signed-in staff of any role, from an allowed address (see admin-network.ts), for one's own
 *   staff account only (second factor); company data always needs a permission (decision 273)
 * - { staff: permission }: as staff, and the staff role must grant the permission (decision 272)
 * - { staff: permission, client: true }: clients (their own data, judged by the route) and staff
 *   whose role grants the permission (decision 273)
 * - { client: member permission }: as client, and the member role must grant it (decision 279)
 * - { staff: permission, client: member permission }: both sides, each with its own permission
 * The old level 'admin' ("any staff role") is refused: every staff route names its permission.
 */
const ACCESS_LEVELS = ['public', 'authenticated', 'client', 'staff'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
type StaffAccess = { staff: Permission; client?: true | MemberPermission };
type ClientAccess = { client: MemberPermission };
export type Access = AccessLevel | StaffAccess | ClientAccess;

/** Whether a route's declared access is one this layer knows (a level, or exactly one known permission, optionally open to clients). */
export function isKnownAccess(access: unknown): access is Access {
  if (typeof access === 'string') return ACCESS_LEVELS.includes(access as AccessLevel);
  if (typeof access !== 'object' || access === null) return false;
  const { staff, client, ...rest } = access as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return false;
  // A client route without a member permission is the 'client' level: one way to say it.
  if (staff === undefined) return isMemberPermission(client);
  return isPermission(staff) && (client === undefined || client === true || isMemberPermission(client));
}

/**
 * The level a declared access is judged at before its permissions: a staff permission alone is a
 * staff route, with a client side a route of both sides, a member permission alone a client route.
 */
export const accessLevel = (access: Access): AccessLevel =>
  typeof access === 'string' ? access : !('staff' in access) ? 'client' : access.client ? 'authenticated' : 'staff';

/** The permission a staff caller needs on a route, if any. */
export const staffPermissionOf = (access: Access): Permission | null => (typeof access !== 'string' && 'staff' in access ? access.staff : null);

/** The member permission a client caller needs on a route, if any. */
export const memberPermissionOf = (access: Access): MemberPermission | null =>
  typeof access !== 'string' && typeof access.client === 'string' ? access.client : null;

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
  staff: ['admin'],
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
    if ((access as unknown) === 'admin') {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares access 'admin', which is no longer accepted: name the permission it needs, { staff: '<permission>' } (decision 273)`);
    }
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
    // Issue 23 (decisions 271, 273): outside the admin networks a staff session has no staff rights
    // anywhere. On a public route it is nobody (the health detail, for one, is decided on
    // request.user); on every other route it is refused before any role or permission is looked at.
    if (request.user?.role === 'admin' && !isAdminAddressAllowed(app, request)) {
      if (access === 'public') request.user = null;
      else throw forbidden(ADMIN_ADDRESS_REFUSED);
    }
    if (access === 'public') return;
    // Anonymous callers of a staff route from outside learn only that the address is refused.
    if (access === 'staff') await app.adminGate(request);
    if (!request.user) {
      if (mfaPending) throw new AppError('UNAUTHENTICATED', DENIED.mfaPending);
      throw unauthenticated(DENIED.signIn);
    }
    if (!ROLES[access].includes(request.user.role)) throw forbidden(DENIED.role);
    const permission = staffPermissionOf(declared);
    if (permission && request.user.role === 'admin' && !roleGrants(request.user.staffRole, permission)) throw forbidden(DENIED.role);
    const memberPermission = memberPermissionOf(declared);
    if (memberPermission && request.user.role === 'client' && !memberGrants(request.user.memberRole, memberPermission)) throw forbidden(DENIED.role);
  });
}

export default fp(accessPlugin, { name: 'access' });
