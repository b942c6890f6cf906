import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0021 (decision 258) from the schema before it, with data: the stored last activity it
// backfills is, row for row, what the lists computed per request before (the expressions below are
// the ones clients.service.ts and projects.service.ts used until 0021), so the activity order of
// every existing client and project is unchanged by the upgrade.

let db: pg.Client;
let column: MigratedDatabase['rows'];
let close: () => Promise<void>;

const OLD_PROJECT_ACTIVITY = `greatest(p.updated_at,
  (select max(m.created_at) from messages m where m.project_id = p.id),
  (select max(r.created_at) from progress_reports r where r.project_id = p.id))`;
// A client's: as before 0021, and the reports of its projects (decision 258 makes them count).
const OLD_CLIENT_ACTIVITY = `greatest(u.updated_at,
  (select max(greatest(p.updated_at, (select max(m.created_at) from messages m where m.project_id = p.id),
    (select max(r.created_at) from progress_reports r where r.project_id = p.id))) from projects p where p.client_id = u.id))`;

beforeAll(async () => {
  // The schema as it was before 0021.
  ({ db, rows: column, close } = await migratedWithData('0021_last_activity', 'last_activity', fill));
});

afterAll(() => close?.());

async function fill(db: pg.Client) {
  // 30 clients (one staff account besides), 90 projects, messages and reports at spread-out times;
  // some clients have no project, some projects no message or report (the fallback is the row's
  // own change), some a report newer than every message (it counts for the project and its client).
  await db.query(`insert into users (role, name, email, updated_at)
    select 'client', 'Client ' || i, 'c' || i || '@example.test', timestamptz '2026-01-01' + (i * 7 % 30) * interval '1 day' from generate_series(1, 30) i`);
  await db.query(`insert into users (role, name, email, updated_at) values ('admin', 'Staff', 'staff@example.test', '2026-06-01')`);
  await db.query(`insert into projects (client_id, name, code, updated_at)
    select u.id, 'Project ' || i, 'P-' || i, timestamptz '2026-01-15' + (i * 11 % 40) * interval '1 day'
      from generate_series(1, 90) i join lateral (select id from users where role = 'client' and name = 'Client ' || (i % 25 + 1)) u on true`);
  await db.query(`insert into messages (project_id, sender_id, text, created_at)
    select p.id, (select id from users where role = 'admin'), 'Note', timestamptz '2026-02-01' + ((i * 13 + j * 29) % 90) * interval '1 day' + j * interval '1 second'
      from (select id, row_number() over (order by code) i from projects) p, generate_series(1, 3) j where p.i % 4 <> 0`);
  await db.query(`insert into progress_reports (project_id, date, project_code, project, team, tasks, progress)
    select id, '2026-03-01', code, name, 'Team', 'Survey', 'Started' from projects where code like '%3'`);
  await db.query(`update progress_reports set created_at = timestamptz '2026-09-01' + (length(project_code) * interval '1 hour')`);
}

describe('migration 0021 from the schema before it, with data', () => {
  it('backfills each project with the activity the list computed, in the same order', async () => {
    const stored = await column('select p.id, p.last_activity_at from projects p order by p.last_activity_at desc, p.id desc');
    const computed = await column(`select p.id, ${OLD_PROJECT_ACTIVITY} from projects p order by 2 desc, p.id desc`);
    expect(stored).toHaveLength(90);
    expect(stored).toEqual(computed);
  });

  it('backfills each client with the activity the list computed, in the same order', async () => {
    const stored = await column("select u.id, u.last_activity_at from users u where u.role = 'client' order by u.last_activity_at desc, u.id desc");
    const computed = await column(`select u.id, ${OLD_CLIENT_ACTIVITY} from users u where u.role = 'client' order by 2 desc, u.id desc`);
    expect(stored).toHaveLength(30);
    expect(stored).toEqual(computed);
    // The data reaches every case: the order is not just the clients' own changes.
    const own = await column("select u.id, u.updated_at from users u where u.role = 'client' order by u.updated_at desc, u.id desc");
    expect(own).not.toEqual(stored);
  });

  it('after the migration, new writes keep the stored time equal to the old expression', async () => {
    await db.query(`insert into messages (project_id, sender_id, text, created_at)
      select id, client_id, 'Later', timestamptz '2027-01-01' + (row_number() over (order by id)) * interval '1 minute' from projects where code like '%7'`);
    await db.query(`update projects set updated_at = timestamptz '2027-02-01' where code = 'P-5'`);
    expect(await column(`select p.id, p.last_activity_at from projects p order by 2 desc, p.id desc`)).toEqual(
      await column(`select p.id, ${OLD_PROJECT_ACTIVITY} from projects p order by 2 desc, p.id desc`),
    );
    expect(await column("select u.id, u.last_activity_at from users u where u.role = 'client' order by 2 desc, u.id desc")).toEqual(
      await column(`select u.id, ${OLD_CLIENT_ACTIVITY} from users u where u.role = 'client' order by 2 desc, u.id desc`),
    );
  });
});
