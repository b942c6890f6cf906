import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalChange } from '../../common/schemas/portal-events.ts';
import { projects } from '../db/schema/projects.ts';
import { openEventStream } from '../../tests/helpers/event-stream.ts';
import { freePort } from '../../tests/helpers/free-port.ts';
import { startServerProcess as startServer, type ServerProcess } from '../../tests/helpers/server-process.ts';
import { createTestApp, createUser, TEST_PASSWORD, type TestApp } from '../../tests/helpers/test-app.ts';

// Two real server processes (server/main.ts, as `npm start` runs it) on one PostgreSQL through
// DATABASE_URL, as behind a load balancer: what is written through one reaches streams held by the other.

let t: TestApp;
let dataDir: string;
const servers: ServerProcess[] = [];

async function login(base: string, url: string, body: object): Promise<string> {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { token?: string };
  if (res.status !== 200 || !json.token) throw new Error(`login failed: ${res.status} ${JSON.stringify(json)}`);
  return json.token;
}

beforeAll(async () => {
  t = await createTestApp();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-two-processes-'));
}, 60_000);

afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two server processes on one database', { timeout: 180_000 }, () => {
  it("delivers a project's status change made through one process to a client's stream held by the other", async () => {
    const client = await createUser(t, { role: 'client', name: 'Kelechi Two-Process' });
    const admin = await createUser(t, { role: 'admin' });
    const [project] = await t.database.db
      .insert(projects)
      .values({ clientId: client.id, name: 'Trans-Amadi Warehouse', code: 'TWO-1', createdAt: t.clock.now() })
      .returning();

    const ports = [await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      servers.push(
        startServer({
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: t.databaseUrl,
          DATA_DIR: path.join(dataDir, `p${i}`),
        }),
      );
    }
    await Promise.all(servers.map((s) => s.ready));
    const [baseA, baseB] = ports.map((p) => `http://127.0.0.1:${p}`);

    const clientToken = await login(baseA, '/api/auth/login', { username: client.username, password: TEST_PASSWORD });
    const adminToken = await login(baseB, '/api/auth/adminlogin', { email: admin.email, password: TEST_PASSWORD });

    // The client's stream is held by process A; staff change the project through process B.
    const stream = await openEventStreamWithBearer(baseA, clientToken);
    expect(stream.response.status).toBe(200);
    await stream.waitFor((e) => e.event === 'ready', 30_000);
    const res = await fetch(`${baseB}/api/projects/${project.id}/status`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'completed' }),
    });
    expect(res.status).toBe(200);
    const change = await stream.waitFor((e) => e.event === 'change', 15_000);
    expect(change.data).toEqual({ type: 'project.status', clientId: client.id, projectId: project.id, id: project.id } satisfies PortalChange);

    // And the other way round: a message written through A reaches a staff stream held by B.
    const staffStream = await openEventStreamWithBearer(baseB, adminToken);
    await staffStream.waitFor((e) => e.event === 'ready', 30_000);
    const sent = await fetch(`${baseA}/api/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Handover', text: 'When is the handover?', projectId: project.id }),
    });
    expect(sent.status).toBe(201);
    const created = await staffStream.waitFor((e) => e.event === 'message', 15_000);
    expect(created.data).toMatchObject({ type: 'message.created', projectId: project.id, clientId: client.id });
    await stream.close();
    await staffStream.close();
  });
});

/** The stream helper with a Bearer token instead of a cookie (how API clients other than browsers sign in). */
function openEventStreamWithBearer(base: string, token: string) {
  return openEventStream(base, '', { authorization: `Bearer ${token}` });
}
