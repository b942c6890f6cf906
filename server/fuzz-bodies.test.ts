import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../tests/helpers/test-app.ts';
import type { AccessExpectation } from '../tests/helpers/access-table.ts';
import { accessLevel } from './plugins/access.ts';

/*
 * Decision 118 (issue 16, finding 13): every route that takes a body is driven with arbitrary JSON
 * (strings with NUL, lone surrogates, control and direction characters, huge strings; extreme
 * numbers; deep and wide nesting; wrong types; the route's own valid body with one field swapped
 * for any of these; and raw text that is not JSON at all), called as the role it needs. Properties:
 * never a 5xx, and an answer in the 4xx range stored no row in any table.
 */

const domainFiles = import.meta.glob<{ default: AccessExpectation[] }>('./modules/*/*.access-table.test-data.ts', { eager: true });
const TABLE = Object.values(domainFiles).flatMap((m) => m.default);
const ORIGIN = 'http://localhost:3000';
/** Runs per route: enough to meet each kind of input several times, bounded so `npm test` stays quick. */
const RUNS_PER_ROUTE = 15;

/**
 * Tables that a refused request is meant to write: the counters of the rate limits (a refused hit
 * still counts) and the audit of failed sign-ins (decision 042). Every other table must not grow.
 */
const BOOKKEEPING_TABLES = new Set(['rate_limit_counters', 'login_attempts']);

let t: TestApp;
let tables: string[] = [];
const cookies: Record<'admin' | 'client', string> = { admin: '', client: '' };

beforeAll(async () => {
  t = await createTestApp({ ADMIN_ALLOWED_CIDRS: '127.0.0.0/8', ADMIN_MFA_REQUIRED: 'false' });
  const rows = await t.database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  tables = rows.rows.map((r) => r.table_name).filter((name) => !BOOKKEEPING_TABLES.has(name));
});
afterAll(async () => {
  await t?.close();
});

/** Every table's row count in one round trip. */
async function rowCounts(): Promise<Record<string, number>> {
  const query = tables.map((name) => `select '${name}' as name, count(*)::int as n from "${name}"`).join(' union all ');
  const rows = await t.database.db.execute<{ name: string; n: number }>(sql.raw(query));
  return Object.fromEntries(rows.rows.map((r) => [r.name, Number(r.n)]));
}

// ---- the inputs ------------------------------------------------------------------------------

const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udfffy',
      '\udc00\ud800',
      '\u202e\u200b\ufeff',
      '\r\n\t\u0007',
      '0',
      '-1',
      'null',
      'true',
      '1e309',
      'NaN',
      '9999-99-99',
      '2026-02-30T25:61:00Z',
      '00000000-0000-0000-0000-000000000000',
      'not-a-uuid',
      '<script>alert(1)</script>',
      "'; drop table users; --",
      '%00%ff',
      '../../etc/passwd',
      'a@b',
      '😀'.repeat(10),
    ),
  },
  // Huge: one character repeated up to ~0.6 MB of UTF-8 (under the 1 MB body limit) or past it.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'é', '😀', '\u0000'), fc.integer({ min: 1_000, max: 300_000 })).map(([c, n]) => c.repeat(n)) },
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-320),
);
const leaf = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null));
const { node: anyValue } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    leaf,
    fc.array(tie('node'), { maxLength: 6 }),
    fc.dictionary(fc.oneof(nastyString, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('node'), { maxKeys: 6 }),
  ),
}));
/**
 * Nesting far deeper than any schema: arrays or objects thousands of levels down, written as text
 * (building and stringifying such a value would overflow the test's own stack).
 */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, asObject]) => (asObject ? `${'{"a":'.repeat(depth)}"b"${'}'.repeat(depth)}` : `${'['.repeat(depth)}"b"${']'.repeat(depth)}`));
/** Wide: many keys or items. */
const wide = fc.integer({ min: 1_000, max: 20_000 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));

/** The route's valid body (from its access-table entry) with fields swapped, removed or added. */
function mutated(valid: unknown) {
  if (!valid || typeof valid !== 'object' || Array.isArray(valid)) return anyValue;
  const keys = Object.keys(valid);
  return fc
    .tuple(fc.subarray(keys), fc.array(fc.tuple(fc.constantFrom(...keys, 'extra'), anyValue), { minLength: 1, maxLength: 3 }))
    .map(([removed, swaps]) => {
      const out: Record<string, unknown> = { ...(valid as Record<string, unknown>) };
      for (const k of removed) delete out[k];
      for (const [k, v] of swaps) out[k] = v;
      return out;
    });
}

type Payload = { json: unknown } | { raw: string };
function payloads(entry: AccessExpectation): fc.Arbitrary<Payload> {
  return fc.oneof(
    { weight: 4, arbitrary: mutated(entry.body).map((json) => ({ json })) },
    { weight: 3, arbitrary: anyValue.map((json) => ({ json })) },
    { weight: 1, arbitrary: wide.map((json) => ({ json })) },
    { weight: 1, arbitrary: deep.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('', '{', '{"a":', '[1,]', 'nul', '"\\ud800"', '{"__proto__":{"x":1}}')).map((raw) => ({ raw })) },
  );
}

// ---- the routes ------------------------------------------------------------------------------

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const fuzzed = TABLE.filter((e) => WRITES.has(e.method) && !e.url.startsWith('/api/test/'));
const fill = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, () => randomUUID());

describe('every route with a body, driven with arbitrary input', () => {
  it('lists the routes it drives', () => {
    expect(fuzzed.length).toBeGreaterThan(30);
  });

  for (const entry of fuzzed) {
    it(`${entry.method} ${entry.url}: never 5xx; a 4xx stores nothing`, async () => {
      // A fresh session per route: a route that ends sessions (logout) cannot upset the next.
      const role = accessLevel(entry.access) === 'staff' ? 'admin' : entry.access === 'public' ? null : 'client';
      if (role) cookies[role] = (await signIn(t, await createUser(t, { role }), role)).cookie;
      let call = 0;
      await fc.assert(
        fc.asyncProperty(payloads(entry), async (payload) => {
          call += 1;
          const before = await rowCounts();
          const res = await t.app.inject({
            method: entry.method,
            url: fill(entry.url),
            // Each call from its own address inside the staff range, so the per-address limits rarely answer first.
            remoteAddress: `127.0.${(call >> 8) & 255}.${call & 255}`,
            headers: { origin: ORIGIN, 'content-type': 'application/json', ...(role ? { cookie: cookies[role] } : {}) },
            payload: 'raw' in payload ? payload.raw : JSON.stringify(payload.json),
          });
          expect(res.statusCode, `${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const after = await rowCounts();
            const grown = tables.filter((name) => after[name] > before[name]);
            expect(grown, `a ${res.statusCode} answer stored rows in: ${grown.join(', ')}`).toEqual([]);
          }
        }),
        { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }, 60_000);
  }
});
