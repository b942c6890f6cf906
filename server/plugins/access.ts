import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthenticated } from '../../common/errors.ts';
import type { UserRole } from '../db/schema/users.ts';
import { resolveSession, type SessionUser } from '../modules/auth/sessions.service.ts';

/**
 * Who may call a route. Every route must declare one; registration fails otherwise.
 * - public: anyone
 * - authenticated: any signed-in user (client or admin)
 * - client: signed-in clients only
 * - admin: signed-in admins, from an allowed address (see admin-network.ts)
 */
export const ACCESS_LEVELS = ['public', 'authenticated', 'client', 'admin'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionId: string | null;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the authorisation test. */
    routeRegistry: RegisteredRoute[];
    /** Extra admin checks (network range) plugged in by the accounts module. */
    adminGate: (request: FastifyRequest) => Promise<void> | void;
  }
}

export const SESSION_COOKIE = 'sid';

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
const ROLES: Record<Exclude<Access, 'public'>, readonly UserRole[]> = {
  authenticated: ['admin', 'client'],
  client: ['client'],
  admin: ['admin'],
};

async function accessPlugin(app: FastifyInstance) {
  app.decorate('routeRegistry', [] as RegisteredRoute[]);
  app.decorate('adminGate', (() => undefined) as FastifyInstance['adminGate']);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);

  app.addHook('onRoute', (route) => {
    // Routes that plugins register for themselves (the API docs) are public by nature.
    if (!route.config?.access && route.url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: 'public' };
    }
    const access = route.config?.access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!access || !ACCESS_LEVELS.includes(access)) {
      throw new Error(`Route ${methods.join(',')} ${route.url} does not declare who may call it (config.access)`);
    }
    for (const method of methods) {
      if (method === 'HEAD') continue; // Fastify adds HEAD beside each GET; it answers as the GET does.
      app.routeRegistry.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access ?? 'public';
    const credentials = tokenFrom(request);
    if (credentials) {
      const session = await resolveSession(app, credentials.token);
      if (session) {
        request.user = session.user;
        request.sessionId = session.id;
      }
    }
    if (access === 'public') return;
    if (access === 'admin') await app.adminGate(request);
    if (!request.user) throw unauthenticated();
    if (!ROLES[access].includes(request.user.role)) throw forbidden();
    if (request.user.mfaPending) {
      throw new AppError('UNAUTHENTICATED', 'Enter the code from your authenticator app to finish signing in');
    }
  });
}

export default fp(accessPlugin, { name: 'access' });
