import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0023 (decision 275) from the schema before it, with data: every existing account stays
// active (deactivated_at null), sessions keep their rows, and staff can then be deactivated.

let rows: MigratedDatabase['rows'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ rows, close } = await migratedWithData('0023_staff_deactivation', 'staff_deactivation', async (before) => {
    await before.query(`insert into users (role, name, email, username) values ('client', 'Client One', 'c1@example.test', 'client-1')`);
    await before.query(`insert into users (role, staff_role, name, email) values ('admin', 'owner', 'First Staff', 'first@example.test'), ('admin', 'support', 'Help Desk', 'help@example.test')`);
    await before.query(`insert into sessions (user_id, token_hash, expires_at) select id, 'hash-' || email, now() + interval '1 day' from users`);
  }));
});

afterAll(() => close?.());

describe('migration 0023 from the schema before it, with data', () => {
  it('leaves every existing account active and keeps its sessions', async () => {
    expect(await rows(`select email, role, coalesce(staff_role, '-'), deactivated_at is null from users order by role, email`)).toEqual([
      'first@example.test admin owner true',
      'help@example.test admin support true',
      'c1@example.test client - true',
    ]);
    expect(await rows(`select count(*) from sessions where revoked_at is null`)).toEqual(['3']);
  });
});
