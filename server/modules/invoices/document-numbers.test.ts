import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/helpers/test-app.ts';
import { createDatabase, type Database } from '../../db/client.ts';
import { DOCUMENT_SERIES, allocateDocumentNumber, formatDocumentNumber, nextDocumentNumber } from './document-numbers.ts';

// The gapless allocator (decision 298) against the real PostgreSQL of the tests: concurrent issues
// queue on the counter row, and a rolled-back issue leaves no gap.

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = createDatabase(testDb.url, { max: 22 });
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

class Refused extends Error {}

/** Issues in a transaction that takes a number, holds it a moment (as a real issue writes rows), then commits or fails. */
const issue = (series: (typeof DOCUMENT_SERIES)[number], year: number, fail = false) =>
  database.db
    .transaction(async (tx) => {
      const n = await nextDocumentNumber(tx, series, year);
      await tx.execute(sql`SELECT pg_sleep(0.005)`);
      if (fail) throw new Refused(String(n));
      return n;
    })
    .catch((err: unknown) => {
      if (err instanceof Refused) return null;
      throw err;
    });

const counter = async (series: string, year: number) =>
  (await database.pool.query<{ last: number }>('SELECT last FROM document_counters WHERE series = $1 AND year = $2', [series, year])).rows[0]?.last ?? null;

describe('nextDocumentNumber', () => {
  it('gives 20 concurrent transactions exactly 1..20, the first of a new year included', async () => {
    const got = await Promise.all(Array.from({ length: 20 }, () => issue('invoice', 2031)));
    expect(got.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await counter('invoice', 2031)).toBe(20);
  });

  it('leaves no gap after a rolled-back issue: the next one takes its number', async () => {
    expect(await issue('invoice', 2032)).toBe(1);
    expect(await issue('invoice', 2032, true)).toBeNull();
    expect(await counter('invoice', 2032)).toBe(1);
    expect(await issue('invoice', 2032)).toBe(2);
  });

  it('leaves no gap when half of 20 concurrent issues roll back: the committed ones hold 1..10', async () => {
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => issue('credit_note', 2033, i % 2 === 1)));
    const committed = got.filter((n): n is number => n !== null).sort((a, b) => a - b);
    expect(committed).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(await counter('credit_note', 2033)).toBe(10);
  });

  it('counts each series and each year on its own', async () => {
    expect(await issue('invoice', 2034)).toBe(1);
    expect(await issue('invoice', 2034)).toBe(2);
    expect(await issue('credit_note', 2034)).toBe(1);
    expect(await issue('invoice', 2035)).toBe(1);
    expect(await issue('credit_note', 2034)).toBe(2);
    for (const series of DOCUMENT_SERIES) expect(await counter(series, 2036)).toBeNull();
  });

  it('refuses an unknown series or a year outside 2000..9999', async () => {
    await expect(database.db.transaction((tx) => nextDocumentNumber(tx, 'receipt' as never, 2030))).rejects.toThrow(RangeError);
    await expect(database.db.transaction((tx) => nextDocumentNumber(tx, 'invoice', 1999))).rejects.toThrow(RangeError);
  });
});

describe('formatDocumentNumber and allocateDocumentNumber', () => {
  it('prints the prefix, the year and at least four digits', () => {
    expect(formatDocumentNumber('INV', 2026, 1)).toBe('INV-2026-0001');
    expect(formatDocumentNumber('CN', 2026, 42)).toBe('CN-2026-0042');
    expect(formatDocumentNumber('INV', 2026, 12345)).toBe('INV-2026-12345');
  });

  it("numbers by the issue date's year with the prefix set now, the count going on across a prefix change", async () => {
    const allocate = (series: (typeof DOCUMENT_SERIES)[number], day: string) => database.db.transaction((tx) => allocateDocumentNumber(tx, series, day));
    expect(await allocate('invoice', '2040-12-31')).toEqual({ number: 'INV-2040-0001', year: 2040, sequence: 1 });
    expect(await allocate('credit_note', '2040-06-01')).toEqual({ number: 'CN-2040-0001', year: 2040, sequence: 1 });
    expect(await allocate('invoice', '2041-01-01')).toEqual({ number: 'INV-2041-0001', year: 2041, sequence: 1 });
    await database.pool.query(`INSERT INTO finance_settings (id, invoice_prefix) VALUES (1, 'KD')`);
    expect(await allocate('invoice', '2040-12-31')).toEqual({ number: 'KD-2040-0002', year: 2040, sequence: 2 });
    await expect(allocate('invoice', '31/12/2040')).rejects.toThrow(RangeError);
  });
});
