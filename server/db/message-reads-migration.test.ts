import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0026 (decision 281) from the schema before it, with data: what a client had read stays
// read, now as a message_reads row of that client's person (today projects.client_id is the person's
// user id); staff keep the shared flag, and the client's messages to the company get no rows.

let db: pg.Client;
let rows: MigratedDatabase['rows'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, rows, close } = await migratedWithData('0026_message_reads', 'message_reads', async (before) => {
    await before.query(`insert into users (id, role, staff_role, name, email, username) values
      ('00000000-0000-4000-8000-00000000000a', 'admin', 'owner', 'Staff', 'staff@example.test', null),
      ('00000000-0000-4000-8000-0000000000c1', 'client', null, 'Ada', 'ada@example.test', 'ada'),
      ('00000000-0000-4000-8000-0000000000c2', 'client', null, 'Bola', 'bola@example.test', 'bola')`);
    await before.query(`insert into projects (id, client_id, name, code) values
      ('00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-0000000000c1', 'One', 'P-1'),
      ('00000000-0000-4000-8000-0000000000f2', '00000000-0000-4000-8000-0000000000c2', 'Two', 'P-2')`);
    const m = (n: number) => `00000000-0000-4000-8000-0000000000e${n}`;
    await before.query(`insert into messages (id, project_id, sender_id, receiver_id, text, is_read, read_at, created_at) values
      ('${m(1)}', '00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000c1', 'read by Ada', true, '2026-11-20T10:00:00Z', '2026-11-20T09:00:00Z'),
      ('${m(2)}', '00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000c1', 'unread by Ada', false, null, '2026-11-20T09:01:00Z'),
      ('${m(3)}', '00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-0000000000c1', null, 'from Ada, read by staff', true, '2026-11-20T11:00:00Z', '2026-11-20T09:02:00Z'),
      ('${m(4)}', '00000000-0000-4000-8000-0000000000f2', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000c2', 'read by Bola, no time kept', true, null, '2026-11-20T09:03:00Z'),
      ('${m(5)}', '00000000-0000-4000-8000-0000000000f2', '00000000-0000-4000-8000-0000000000c2', null, 'from Bola, unread', false, null, '2026-11-20T09:04:00Z')`);
  }));
});

afterAll(() => close?.());

describe('migration 0026 from the schema before it, with data', () => {
  it("gives every staff message the client had read a read row for the client's person, at the time it was read", async () => {
    expect(await rows(`select m.text, u.name, to_char(r.read_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') from message_reads r
      join messages m on m.id = r.message_id join users u on u.id = r.user_id order by m.created_at`)).toEqual([
      'read by Ada Ada 2026-11-20 10:00',
      'read by Bola, no time kept Bola 2026-11-20 09:03',
    ]);
  });

  it("leaves the shared flags as they were, so staff counters and receipts do not change", async () => {
    expect(await rows(`select text, is_read from messages order by created_at`)).toEqual([
      'read by Ada true',
      'unread by Ada false',
      'from Ada, read by staff true',
      'read by Bola, no time kept true',
      'from Bola, unread false',
    ]);
  });

  it('deletes a read row with its message or its person', async () => {
    await db.query(`insert into message_reads (message_id, user_id, read_at) values ('00000000-0000-4000-8000-0000000000e2', '00000000-0000-4000-8000-0000000000c1', now())`);
    await db.query(`delete from messages where id = '00000000-0000-4000-8000-0000000000e2'`);
    expect(await rows(`select count(*) from message_reads where message_id = '00000000-0000-4000-8000-0000000000e2'`)).toEqual(['0']);
    // Bola reads Ada's message (a person of another client in the test only: the key takes any user).
    await db.query(`insert into message_reads (message_id, user_id, read_at) values ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000c2', now())`);
    await db.query(`delete from messages where project_id = '00000000-0000-4000-8000-0000000000f2'`);
    expect(await rows(`select count(*) from message_reads`)).toEqual(['2']);
    await db.query(`delete from projects where id = '00000000-0000-4000-8000-0000000000f2'`);
    await db.query(`delete from users where id = '00000000-0000-4000-8000-0000000000c2'`);
    expect(await rows(`select m.text, u.name from message_reads r join messages m on m.id = r.message_id join users u on u.id = r.user_id`)).toEqual(['read by Ada Ada']);
  });
});
