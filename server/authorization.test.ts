import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from './modules/auth/sessions.service.ts';
import { accessLevel, CROSS_SITE_REFUSED, DENIED, isKnownAccess, memberPermissionOf, staffPermissionOf, type Access } from './plugins/access.ts';
import { MEMBER_ROLES, memberGrants, roleGrants, STAFF_ROLES, type MemberRole, type StaffRole } from '../common/permissions.ts';
import { ADMIN_ADDRESS_REFUSED } from './modules/auth/admin-network.ts';
import { createTestApp, createUser } from '../tests/helpers/test-app.ts';
import { defineAccess, type AccessActor, type AccessExpectation, type AccessFixtureContext } from '../tests/helpers/access-table.ts';

/*
 * The proof that every route says who may call it, and that the server enforces it. The table is
 * the union of `server/modules/<domain>/<domain>.access-table.test-data.ts` files plus the system routes below. A
 * route registered without an entry fails this test: add one line to your domain's access file
 * (see tests/helpers/access-table.ts for the fields and what is checked).
 */

const SYSTEM_ROUTES = defineAccess([
  { method: 'GET', url: '/api/health', access: 'public' },
  { method: 'GET', url: '/api/health/ready', access: 'public' },
  // Public to the access layer; the route itself refuses all but the admin networks and the metrics token.
  { method: 'GET', url: '/metrics', access: 'public' },
  { method: 'GET', url: '/api/docs/json', access: 'public' },
  { method: 'GET', url: '/api/docs/yaml', access: 'public' },
  { method: 'GET', url: '/api/docs/static/index.html', access: 'public' },
  { method: 'GET', url: '/api/docs/static/swagger-initializer.js', access: 'public' },
  { method: 'GET', url: '/api/docs/static/*', access: 'public' },
  { method: 'GET', url: '/api/docs', access: 'public' },
  // The web pages: the React Router build (a stub here); covered by the browser tests.
  { method: 'GET', url: '/', access: 'public', noCalls: 'served by the React Router build, which the browser tests cover' },
  { method: 'GET', url: '/*', access: 'public', noCalls: 'served by the React Router build, which the browser tests cover' },
]);

const domainFiles = import.meta.glob<{ default: AccessExpectation[] }>('./modules/*/*.access-table.test-data.ts', { eager: true });
const TABLE: AccessExpectation[] = [...SYSTEM_ROUTES, ...Object.values(domainFiles).flatMap((m) => m.default)];

const ALLOWED_CIDRS = '127.0.0.0/8, 10.0.0.0/8';
const ADMIN_INSIDE = '10.9.8.7';
const OUTSIDE = '203.0.113.50';
const ORIGIN = 'http://localhost:3000';
const key = (method: string, url: string) => `${method} ${url}`;

// A stand-in web build, so the web routes register as they do in production.
const buildDir = mkdtempSync(path.join(os.tmpdir(), 'authz-build-'));
mkdirSync(path.join(buildDir, 'server'), { recursive: true });
mkdirSync(path.join(buildDir, 'client'), { recursive: true });
writeFileSync(
  path.join(buildDir, 'server', 'index.js'),
  "export const routes = {}; export const entry = { module: {} }; export const assets = { routes: {}, entry: { module: '', imports: [] }, url: '', version: '1' }; export const future = {}; export const publicPath = '/'; export const assetsBuildDirectory = ''; export const ssr = true; export const isSpaMode = false; export const prerender = [];\n",
);
process.env.BUILD_DIR = buildDir;

const t = await createTestApp({ ADMIN_ALLOWED_CIDRS: ALLOWED_CIDRS, ADMIN_MFA_REQUIRED: 'false' }, { web: true });
const { app } = t;

afterAll(async () => {
  await t.close();
  rmSync(buildDir, { recursive: true, force: true });
});

const users = {
  clientA: await createUser(t, { role: 'client', name: 'Client A' }),
  clientB: await createUser(t, { role: 'client', name: 'Client B' }),
  admin: await createUser(t, { role: 'admin', name: 'Admin' }),
};
// One staff account per role, for the routes that need a permission (decision 272).
const staffUsers = {} as Record<StaffRole, { id: string; name: string }>;
for (const staffRole of STAFF_ROLES) staffUsers[staffRole] = await createUser(t, { role: 'admin', name: `Staff ${staffRole}`, staffRole });
// One member of client A's organisation per member role, for the routes that need a member permission (decision 279).
const memberUsers = {} as Record<MemberRole, { id: string; name: string }>;
for (const memberRole of MEMBER_ROLES) memberUsers[memberRole] = await createUser(t, { role: 'client', name: `Member ${memberRole}`, organisationId: users.clientA.id, memberRole });
const showAccess = (access: Access) =>
  typeof access === 'string' ? access : [('staff' in access) ? `staff: ${access.staff}` : '', access.client ? `client: ${access.client}` : ''].filter(Boolean).join(', ');

async function actor(user: { id: string; name: string }, role: 'admin' | 'client', mfaPending = false): Promise<AccessActor> {
  const { token } = await createSession(app, { userId: user.id, role, mfaPending });
  return { id: user.id, name: user.name, headers: { cookie: `sid=${token}`, origin: ORIGIN } };
}

/** Fresh sessions for each route, so a route that ends sessions (logout) cannot upset the next. */
async function actors() {
  return {
    clientA: await actor(users.clientA, 'client'),
    clientB: await actor(users.clientB, 'client'),
    admin: await actor(users.admin, 'admin'),
    pendingAdmin: await actor(users.admin, 'admin', true),
  };
}

const registered = new Map(app.routeRegistry.map((r) => [key(r.method, r.url), r]));
const expected = new Map<string, AccessExpectation>();
const duplicates: string[] = [];
for (const entry of TABLE) {
  const k = key(entry.method, entry.url);
  if (expected.has(k)) duplicates.push(k);
  expected.set(k, entry);
}

const fill = (url: string, params: Record<string, string>) =>
  url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`The fixture of ${url} gives no value for :${name}`);
    return encodeURIComponent(params[name]);
  });
const randomParams = (url: string) => Object.fromEntries([...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => [m[1], randomUUID()]));
const hasParams = (url: string) => /:[A-Za-z0-9_]+/.test(url);
const messageOf = (body: string): unknown => {
  try {
    return JSON.parse(body).message;
  } catch {
    return undefined;
  }
};

describe('authorization table', () => {
  it('has an expectation for every registered route', () => {
    const missing = [...registered.keys()].filter((k) => !expected.has(k));
    expect(
      missing,
      'These routes are registered but have no entry in the access table. Add one line per route to server/modules/<domain>/<domain>.access-table.test-data.ts (see tests/helpers/access-table.ts)',
    ).toEqual([]);
  });

  it('has no entry for a route that does not exist, and none twice', () => {
    const stale = [...expected.keys()].filter((k) => !registered.has(k));
    expect(stale, 'These table entries name routes the server does not register').toEqual([]);
    expect(duplicates).toEqual([]);
  });

  it('declares on every route the access its table entry expects', () => {
    const wrong = [...registered.values()]
      .filter((r) => expected.has(key(r.method, r.url)) && showAccess(expected.get(key(r.method, r.url))!.access) !== showAccess(r.access))
      .map((r) => `${key(r.method, r.url)}: declared ${showAccess(r.access)}, table says ${showAccess(expected.get(key(r.method, r.url))!.access)}`);
    expect(wrong).toEqual([]);
    for (const r of registered.values()) expect(isKnownAccess(r.access), showAccess(r.access)).toBe(true);
  });

  it('treats the web pages as public', () => {
    expect(registered.get('GET /')?.access).toBe('public');
    expect(registered.get('GET /*')?.access).toBe('public');
  });
});

describe('every route answers only the callers it declares', () => {
  for (const entry of TABLE) {
    const k = key(entry.method, entry.url);
    const title = `${k} (${showAccess(entry.access)})`;
    // A staff permission is a staff route (or one of both sides) first, then its role check below.
    const level = accessLevel(entry.access);
    const permission = staffPermissionOf(entry.access);
    const memberPermission = memberPermissionOf(entry.access);
    if (entry.noCalls) continue;
    it(title, async () => {
      if (!registered.has(k)) return; // reported by the table test above
      const who = await actors();
      const call = (caller: AccessActor | null, url: string, remoteAddress: string, body = entry.body) =>
        app.inject({
          method: entry.method,
          url,
          remoteAddress,
          headers: { origin: ORIGIN, ...(caller?.headers ?? {}) },
          ...(body !== undefined ? { payload: body as object } : {}),
        });
      const missingUrl = fill(entry.url, randomParams(entry.url));
      const problems: string[] = [];
      // A route may answer 401/403 for its own reasons (a wrong code); only this layer's refusals count as denied.
      const DENIALS = new Set<string>([...Object.values(DENIED), ADMIN_ADDRESS_REFUSED, CROSS_SITE_REFUSED]);
      const deniedByAccess = (res: { statusCode: number; body: string }) => {
        if (res.statusCode !== 401 && res.statusCode !== 403) return false;
        try {
          return DENIALS.has(JSON.parse(res.body).message);
        } catch {
          return true;
        }
      };
      const check = (label: string, status: number, ok: (s: number) => boolean, want: string) => {
        if (!ok(status)) problems.push(`${label}: got ${status}, expected ${want}`);
      };

      // Anonymous (for staff routes: from inside the allowed range; from outside the gate refuses first).
      const anonymous = await call(null, missingUrl, level === 'staff' ? ADMIN_INSIDE : '198.51.100.7');
      if (level === 'public') check('anonymous', anonymous.statusCode, (s) => s < 500, 'no server error');
      else check('anonymous', anonymous.statusCode, (s) => s === 401, '401');
      if (level === 'staff') {
        check('anonymous outside the allowed range', (await call(null, missingUrl, OUTSIDE)).statusCode, (s) => s === 401 || s === 403, '401 or 403');
      }

      // Wrong side.
      if (level === 'staff') {
        check('client A on a staff route', (await call(who.clientA, missingUrl, '198.51.100.7')).statusCode, (s) => s === 403, '403');
      }
      if (level !== 'public') {
        // Decisions 271, 273: outside the admin networks a staff session has no staff rights on any route.
        const outside = await call(who.admin, missingUrl, OUTSIDE);
        if (outside.statusCode !== 403 || messageOf(outside.body) !== ADMIN_ADDRESS_REFUSED) {
          problems.push(`owner outside the allowed range: got ${outside.statusCode} ${outside.body}, expected 403 (${ADMIN_ADDRESS_REFUSED})`);
        }
        const pending = await call(who.pendingAdmin, missingUrl, ADMIN_INSIDE);
        if (entry.allowsMfaPending) {
          if (deniedByAccess(pending) || pending.statusCode >= 500) problems.push(`admin waiting for the second factor: got ${pending.statusCode} ${pending.body}, expected allowed (a second-factor step)`);
        } else check('admin waiting for the second factor', pending.statusCode, (s) => s === 401, '401');
      }

      // Every staff role (decision 273): on a staff route or one of both sides, the roles that hold
      // the route's permission (every role, on a staff route without one) pass the gate and find
      // random ids missing; every other role gets this layer's 403. A client route refuses them all;
      // a public route lets them all through.
      for (const staffRole of STAFF_ROLES) {
        const res = await call(await actor(staffUsers[staffRole], 'admin'), missingUrl, ADMIN_INSIDE);
        const grants = level !== 'client' && (!permission || roleGrants(staffRole, permission));
        const what = `${staffRole} ${permission ? `${grants ? 'with' : 'without'} ${permission}` : `on a ${level} route`}`;
        if (!grants && (res.statusCode !== 403 || messageOf(res.body) !== DENIED.role)) problems.push(`${what}: got ${res.statusCode} ${res.body}, expected 403 (${DENIED.role})`);
        if (grants && (deniedByAccess(res) || res.statusCode >= 500)) problems.push(`${what}: got ${res.statusCode} ${res.body}, expected to be let through`);
        if (grants && hasParams(entry.url)) check(`${what}, random ids`, res.statusCode, (s) => s === (entry.missingStatus ?? 404), String(entry.missingStatus ?? 404));
      }

      // Permitted callers: random ids are simply missing (404), never a crash.
      const permitted: Array<[string, AccessActor | null, string]> =
        level === 'public'
          ? [
              ['anonymous', null, '198.51.100.7'],
              ['client A', who.clientA, '198.51.100.7'],
            ]
          : level === 'staff'
            ? [['admin', who.admin, ADMIN_INSIDE]]
            : level === 'client'
              ? [['client A', who.clientA, '198.51.100.7']]
              : [
                  ['client A', who.clientA, '198.51.100.7'],
                  ['admin', who.admin, ADMIN_INSIDE],
                ];
      const missingAnswers = new Map<string, { status: number; body: string }>();
      for (const [label, caller, address] of permitted) {
        const res = await call(caller, missingUrl, address);
        missingAnswers.set(label, { status: res.statusCode, body: res.body });
        if (hasParams(entry.url)) {
          const want = entry.missingStatus ?? 404;
          check(`${label} with random ids`, res.statusCode, (s) => s === want, String(want));
        } else if (level !== 'public' && (deniedByAccess(res) || res.statusCode >= 500)) {
          problems.push(`${label}: got ${res.statusCode} ${res.body}, expected to be let through`);
        }
      }

      // Member permission: every member role without it is refused by this layer; every role with it passes.
      if (memberPermission) {
        for (const memberRole of MEMBER_ROLES) {
          const res = await call(await actor(memberUsers[memberRole], 'client'), missingUrl, '198.51.100.7');
          const grants = memberGrants(memberRole, memberPermission);
          if (!grants && (res.statusCode !== 403 || !deniedByAccess(res))) problems.push(`member ${memberRole} without ${memberPermission}: got ${res.statusCode}, expected 403`);
          if (grants && (deniedByAccess(res) || res.statusCode >= 500)) problems.push(`member ${memberRole} with ${memberPermission}: got ${res.statusCode} ${res.body}, expected to be let through`);
        }
      }

      // Ownership: client A reaches its own resource; client B's answers exactly like a missing one.
      if (entry.fixture) {
        const ctx: AccessFixtureContext = { t, clientA: who.clientA, clientB: who.clientB, admin: who.admin, adminAddress: ADMIN_INSIDE };
        const fixture = await entry.fixture(ctx);
        const body = fixture.body ?? entry.body;
        const ownOk = (s: number) => (entry.ownStatus ? s === entry.ownStatus : s >= 200 && s < 300);
        const ownWant = entry.ownStatus ? String(entry.ownStatus) : '2xx';
        const ownUrl = fill(entry.url, fixture.own);
        if (level === 'client' || level === 'authenticated') {
          check("client A on its own resource", (await call(who.clientA, ownUrl, '198.51.100.7', body)).statusCode, ownOk, ownWant);
          const stranger = await call(who.clientB, ownUrl, '198.51.100.7', body);
          check("client B on client A's resource", stranger.statusCode, (s) => s === 404, '404');
          const missing = await call(who.clientB, missingUrl, '198.51.100.7', body);
          const shape = (b: string) => {
            try {
              const j = JSON.parse(b);
              return JSON.stringify({ code: j.code, message: j.message });
            } catch {
              return b;
            }
          };
          if (shape(stranger.body) !== shape(missing.body)) {
            problems.push(`client B on client A's resource answers ${stranger.body}, but a missing one answers ${missing.body}`);
          }
          if (fixture.other) {
            check("client A on client B's resource", (await call(who.clientA, fill(entry.url, fixture.other), '198.51.100.7', body)).statusCode, (s) => s === 404, '404');
          }
        }
        if (level === 'staff' || level === 'authenticated') {
          const adminStatus = (await call(who.admin, ownUrl, ADMIN_INSIDE, body)).statusCode;
          if (entry.adminOwnStatus) check("admin on a client's resource", adminStatus, (s) => s === entry.adminOwnStatus, String(entry.adminOwnStatus));
          else check("admin on a client's resource", adminStatus, ownOk, ownWant);
        }
      }

      expect(problems, title).toEqual([]);
    });
  }
});
