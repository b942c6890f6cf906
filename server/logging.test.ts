import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase, type Database } from './db/client.ts';
import { mailOutbox } from './db/schema/mail.ts';
import { createLogger, prettyLine } from './logging.ts';
import { settleAfterAnswer } from './lib/after-answer.ts';
import { issueSetupLink } from './modules/setup/setup.service.ts';
import { createTestDatabase, TEST_MFA_ENCRYPTION_KEY } from '../tests/helpers/test-app.ts';
import { createFakeClock } from '../tests/helpers/fake-clock.ts';

// Decision 164: the logs of a full flow (set-up link, sign-in, reset link, session cookies) hold
// none of the passwords, tokens or cookies it used, and say one line per request.

const ORIGIN = 'http://localhost:3000';
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _e, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let app: App;
let database: Database;
let drop: () => Promise<void>;
let uploadsDir: string;
beforeAll(async () => {
  const testDb = await createTestDatabase();
  drop = testDb.drop;
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'log-secrets-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'debug',
    DATABASE_URL: testDb.url,
    UPLOADS_DIR: uploadsDir,
    MFA_ENCRYPTION_KEY: TEST_MFA_ENCRYPTION_KEY,
    ADMIN_MFA_REQUIRED: 'false',
    PUBLIC_URL: ORIGIN,
  });
  database = createDatabase(testDb.url, { max: 4 });
  app = await buildApp({ config, database, clock: createFakeClock(), logger: createLogger(config, sink) });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await drop();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, headers: { origin: ORIGIN, 'user-agent': 'log-test', ...headers }, payload });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'sid')!.value;

describe('logs of a full flow', () => {
  it('hold no password, token or cookie it used, and one JSON line per request', async () => {
    const secrets: string[] = [];
    // First run: the set-up link's token, the first admin's password, its session.
    const link = await issueSetupLink(app);
    const setupToken = new URL(link!.url).hash.slice('#token='.length);
    const adminPassword = 'basalt meadow river ninety';
    const created = await post('/api/setup/admin', { token: setupToken, name: 'Log Admin', email: 'log.admin@example.test', password: adminPassword });
    expect(created.statusCode).toBe(200);
    secrets.push(setupToken, adminPassword, created.json().token);

    // Sign-in, a signed-in call with the cookie, a wrong password.
    const login = await post('/api/auth/adminlogin', { email: 'log.admin@example.test', password: adminPassword });
    expect(login.statusCode).toBe(200);
    const sid = cookieOf(login);
    secrets.push(sid);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `sid=${sid}` } })).statusCode).toBe(200);
    const wrongPassword = 'not the password at all 42';
    expect((await post('/api/auth/adminlogin', { email: 'log.admin@example.test', password: wrongPassword })).statusCode).toBe(401);
    secrets.push(wrongPassword);

    // A reset link (its token read from the outbox, as the mail carries it), used with a new password.
    expect((await post('/api/auth/password/forgot', { identifier: 'log.admin@example.test' })).statusCode).toBe(200);
    await settleAfterAnswer(app);
    const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'password-reset'));
    const resetToken = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const newPassword = 'cobalt harvest tunnel seven';
    const reset = await post('/api/auth/password/reset', { token: resetToken, password: newPassword });
    expect(reset.statusCode).toBe(200);
    secrets.push(resetToken, newPassword);
    const again = await post('/api/auth/adminlogin', { email: 'log.admin@example.test', password: newPassword });
    secrets.push(cookieOf(again));
    // A query that carries a token (the newsletter's links do) and a bearer header.
    await app.inject({ method: 'GET', url: `/api/health?token=${resetToken}`, headers: { authorization: `Bearer ${sid}` } });
    await app.close();

    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(all, `a log line holds ${secret.slice(0, 6)}…`).not.toContain(secret);
    // Production lines are JSON; each request is one line with its method, path and status.
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string });
    const requestLines = parsed.filter((l) => /^(GET|POST) \//.test(l.msg));
    expect(requestLines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^POST \/api\/setup\/admin 200 [\d.]+ ms$/));
    expect(requestLines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^GET \/api\/health\?… 200 [\d.]+ ms$/));
    expect(new Set(requestLines.map((l) => l.reqId)).size).toBe(requestLines.length);
    expect(parsed.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
  });
});

describe('development lines', () => {
  it('are one readable line: time, level, message, then the extra fields', () => {
    const line = prettyLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 10, 23, 9, 4, 5), pid: 1, hostname: 'h', reqId: 'r1', msg: 'GET /api/health 200 3 ms' }));
    expect(line).toBe('09:04:05 INFO  GET /api/health 200 3 ms');
    expect(prettyLine(JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 1), msg: 'slow', removed: 3 }))).toBe('00:00:00 WARN  slow  removed=3');
    expect(prettyLine('not json')).toBe('not json');
  });
});
