import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0024 (decision 277) from the schema before it, with data: existing staff, clients and
// projects are untouched and nobody is assigned (every existing account is an owner, who sees all);
// an assignment goes with its project or its user, and a pair is stored once.

let db: pg.Client;
let rows: MigratedDatabase['rows'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, rows, close } = await migratedWithData('0024_project_assignments', 'project_assignments', async (before) => {
    await before.query(`insert into users (role, staff_role, name, email) values ('admin', 'owner', 'Site Owner', 'owner@example.test'), ('admin', 'project_manager', 'Pat Manager', 'pm@example.test')`);
    await before.query(`insert into users (role, name, email, username) values ('client', 'Harbour Client', 'harbour@example.test', 'harbour')`);
    await before.query(`insert into projects (client_id, name, code) select id, 'Project ' || i, 'MIG-' || i from users, generate_series(1, 3) i where email = 'harbour@example.test'`);
  }));
});

afterAll(() => close?.());

const id = async (query: string) => (await db.query<{ id: string }>(query)).rows[0].id;

describe('migration 0024 from the schema before it, with data', () => {
  it('keeps every user and project and assigns nobody', async () => {
    expect(await rows(`select email, coalesce(staff_role, '-') from users order by email`)).toEqual(['harbour@example.test -', 'owner@example.test owner', 'pm@example.test project_manager']);
    expect(await rows(`select code from projects order by code`)).toEqual(['MIG-1', 'MIG-2', 'MIG-3']);
    expect(await rows(`select count(*) from project_assignments`)).toEqual(['0']);
  });

  it('stores a pair once and drops it with its project or its user', async () => {
    const pm = await id(`select id from users where email = 'pm@example.test'`);
    const [first, second] = (await db.query<{ id: string }>(`select id from projects order by code limit 2`)).rows.map((r) => r.id);
    await db.query(`insert into project_assignments (project_id, user_id) values ($1, $3), ($2, $3)`, [first, second, pm]);
    const clash = await db.query(`insert into project_assignments (project_id, user_id) values ($1, $2)`, [first, pm]).then(() => null, (err: { code?: string }) => err.code);
    expect(clash).toBe('23505');
    await db.query(`delete from projects where id = $1`, [first]);
    expect(await rows(`select project_id from project_assignments`)).toEqual([second]);
    await db.query(`delete from users where id = $1`, [pm]);
    expect(await rows(`select count(*) from project_assignments`)).toEqual(['0']);
  });
});
