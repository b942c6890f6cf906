import argon2 from 'argon2';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, type Database } from './client.ts';
import { createFakeClock } from '../../tests/helpers/fake-clock.ts';
import { migratedWithData, type MigratedDatabase } from '../../tests/helpers/migration-before.ts';

// Migration 0025 (decision 279) from the schema before it, with data: every client becomes the admin
// of an organisation with its own id; its projects, messages and sign-in survive unchanged.

const PASSWORD = 'a long and honest password';
let db: pg.Client;
let rows: MigratedDatabase['rows'];
let close: () => Promise<void>;
let app: App;
let database: Database;
let clientId: string;

beforeAll(async () => {
  const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  let url: string;
  ({ db, url, rows, close } = await migratedWithData('0025_client_organisations', 'client_orgs', async (before) => {
    const client = await before.query(
      `insert into users (role, name, email, username, password_hash, status, archived_at) values
        ('client', 'Harbour Logistics Ltd', 'harbour@example.test', 'harbour', $1, 'in-progress', null),
        ('client', 'Old Client', 'old@example.test', 'old.client', null, 'completed', '2026-01-02T03:04:05Z') returning id`,
      [passwordHash],
    );
    clientId = client.rows[0].id as string;
    await before.query(`insert into users (role, staff_role, name, email) values ('admin', 'owner', 'Staff', 'staff@example.test')`);
    const project = await before.query(`insert into projects (client_id, name, code) values ($1, 'Quay Wall', 'QW-1'), ($1, 'Depot', 'DP-1') returning id`, [clientId]);
    await before.query(`insert into messages (project_id, sender_id, text) values ($1, $2, 'Hello from the quay')`, [project.rows[0].id, clientId]);
  }));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url!, UPLOADS_DIR: '/tmp/unused-uploads' });
  database = createDatabase(url!, { max: 2 });
  app = await buildApp({ config, database, logger: false, clock: createFakeClock() });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await close?.();
});

describe('migration 0025 from the schema before it, with data', () => {
  it('gives every client an organisation with its own id, name, status and archive time, and makes it the admin', async () => {
    expect(await rows(`select o.name, o.status, o.archived_at is not null as archived, u.member_role, u.organisation_id = u.id as own
      from client_organisations o join users u on u.id = o.id order by o.name`)).toEqual([
      'Harbour Logistics Ltd in-progress false admin true',
      'Old Client completed true admin true',
    ]);
    expect(await rows(`select role, coalesce(member_role, '-') as m, coalesce(organisation_id::text, '-') as o from users where role = 'admin'`)).toEqual(['admin - -']);
  });

  it('keeps the projects and messages, and points projects at the organisation', async () => {
    expect(await rows(`select p.name as project, o.name from projects p join client_organisations o on o.id = p.client_id order by p.name`)).toEqual([
      'Depot Harbour Logistics Ltd',
      'Quay Wall Harbour Logistics Ltd',
    ]);
    expect(await rows(`select m.text, u.name from messages m join users u on u.id = m.sender_id`)).toEqual(['Hello from the quay Harbour Logistics Ltd']);
    expect(await rows(`select confrelid::regclass::text from pg_constraint where conname = 'projects_client_id_client_organisations_id_fk'`)).toEqual(['client_organisations']);
  });

  it('lets the client sign in with the same username and password', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'http://localhost:3000' }, payload: { username: 'harbour', password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ _id: clientId, role: 'client' });
  });

  it('refuses a client without a role or organisation, and staff with one', async () => {
    const refused = (query: string) => db.query(query).then(() => null, (err: { constraint?: string }) => err.constraint);
    expect(await refused(`update users set member_role = null where username = 'harbour'`)).toBe('users_member_role_check');
    expect(await refused(`update users set member_role = 'owner' where username = 'harbour'`)).toBe('users_member_role_check');
    expect(await refused(`update users set member_role = 'admin' where role = 'admin'`)).toBe('users_member_role_check');
  });

  it('founds an organisation for a new client row, and mirrors its name, status and archive time', async () => {
    const [id] = await rows(`insert into users (role, name, email, username) values ('client', 'New Co', 'new@example.test', 'new.co') returning id`);
    expect(await rows(`select o.name, u.member_role from client_organisations o join users u on u.organisation_id = o.id where o.id = '${id}'`)).toEqual(['New Co admin']);
    await db.query(`update users set name = 'New Co Ltd', status = 'completed' where id = $1`, [id]);
    expect(await rows(`select name, status from client_organisations where id = '${id}'`)).toEqual(['New Co Ltd completed']);
  });
});
