import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0030 (decision 294) from the schema before it, with data: each project's numeric budget
// becomes exactly as many kobo, in budget_kobo and original_budget_kobo, and the numeric column goes.

let db: pg.Client;
let rows: MigratedDatabase['rows'];
let close: () => Promise<void>;

// Amounts a floating-point conversion gets wrong (0.29 * 100 = 28.999999999999996) and the largest numeric(16,2).
const BUDGETS = ['0', '0.29', '1.01', '4500000.50', '1250000.05', '99999999999999.99'];

beforeAll(async () => {
  ({ db, rows, close } = await migratedWithData('0030_change_orders', 'change_orders', async (before) => {
    const org = await before.query(`insert into client_organisations (id, name) values (gen_random_uuid(), 'Harbour Logistics Ltd') returning id`);
    const clientId = org.rows[0].id as string;
    await before.query(
      `insert into users (id, role, name, email, username, status, member_role, organisation_id) values ($1, 'client', 'Harbour Logistics Ltd', 'harbour@example.test', 'harbour', 'in-progress', 'admin', $1)`,
      [clientId],
    );
    for (const [i, budget] of BUDGETS.entries()) {
      await before.query(`insert into projects (client_id, name, code, budget) values ($1, $2, $3, $4)`, [clientId, `Project ${i}`, `P-${i}`, budget]);
    }
  }));
});

afterAll(async () => {
  await close?.();
});

describe('migration 0030 from the schema before it, with data', () => {
  it('moves every budget to exactly as many kobo, the original sum the same, and drops the numeric column', async () => {
    expect(await rows(`select code, budget_kobo, original_budget_kobo from projects order by code`)).toEqual([
      'P-0 0 0',
      'P-1 29 29',
      'P-2 101 101',
      'P-3 450000050 450000050',
      'P-4 125000005 125000005',
      'P-5 9999999999999999 9999999999999999',
    ]);
    expect(await rows(`select count(*) from information_schema.columns where table_name = 'projects' and column_name = 'budget'`)).toEqual(['0']);
    expect(await rows(`select data_type from information_schema.columns where table_name = 'projects' and column_name = 'budget_kobo'`)).toEqual(['bigint']);
  });

  it('leaves an empty change order table', async () => {
    expect((await db.query('select count(*)::int as n from change_orders')).rows[0].n).toBe(0);
  });
});
