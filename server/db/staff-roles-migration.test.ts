import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0022 (decision 272) from the schema before it, with data: before roles every staff
// account could do everything, so each existing admin becomes an owner and no client gets a role.

let db: pg.Client;
let rows: MigratedDatabase['rows'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, rows, close } = await migratedWithData('0022_staff_roles', 'staff_roles', async (before) => {
    await before.query(`insert into users (role, name, email, username)
      select 'client', 'Client ' || i, 'c' || i || '@example.test', 'client-' || i from generate_series(1, 5) i`);
    await before.query(`insert into users (role, name, email) values ('admin', 'First Staff', 'first@example.test'), ('admin', 'Second Staff', 'second@example.test')`);
  }));
});

afterAll(() => close?.());

describe('migration 0022 from the schema before it, with data', () => {
  it('makes every existing admin an owner and leaves clients without a staff role', async () => {
    expect(await rows(`select email, role, coalesce(staff_role, '-') from users order by role, email`)).toEqual([
      'first@example.test admin owner',
      'second@example.test admin owner',
      ...[1, 2, 3, 4, 5].map((i) => `c${i}@example.test client -`),
    ]);
  });

  it('refuses staff without a role, a client with one, and a role outside the list', async () => {
    const refused = async (query: string) => {
      const error = await db.query(query).then(
        () => null,
        (err: { constraint?: string }) => err,
      );
      return error?.constraint;
    };
    expect(await refused(`insert into users (role, name, email) values ('admin', 'No Role', 'norole@example.test')`)).toBe('users_staff_role_check');
    expect(await refused(`insert into users (role, staff_role, name, email, username) values ('client', 'editor', 'C', 'cr@example.test', 'cr')`)).toBe('users_staff_role_check');
    expect(await refused(`insert into users (role, staff_role, name, email) values ('admin', 'superuser', 'S', 'su@example.test')`)).toBe('users_staff_role_check');
    expect(await refused(`update users set staff_role = null where email = 'first@example.test'`)).toBe('users_staff_role_check');
    await db.query(`insert into users (role, staff_role, name, email) values ('admin', 'support', 'Help Desk', 'help@example.test')`);
    expect(await rows(`select staff_role from users where email = 'help@example.test'`)).toEqual(['support']);
  });
});
