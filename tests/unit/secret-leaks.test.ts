import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeLeaks, findSecretLeaks, readRecordedSecrets, type RecordedSecret } from '../e2e/secret-leaks.ts';

// Decision 177: the end-of-run check of the browser tests finds a recorded secret in the server's
// log in each form a log line could hold it, and says so without ever printing the value.

const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-leaks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const password: RecordedSecret = { kind: 'a test account password', test: 'login › signs in', value: 'pa"ss word/42 é' };
const cookie: RecordedSecret = { kind: 'a session cookie (sid)', test: 'portal › reads', value: 'Zk3v9sQ1xYwT0b5nLm8rA2' };
const code: RecordedSecret = { kind: 'the "code" field sent to /api/auth/mfa', test: 'mfa', value: '123456' };

describe('findSecretLeaks', () => {
  it('finds nothing in a log without the secrets', () => {
    expect(findSecretLeaks('10:00:01 INFO  POST /api/auth/login 200 12 ms\n10:00:02 INFO  GET /api/auth/me 200 3 ms\n', [password, cookie])).toEqual([]);
  });

  it('finds a secret as it is, escaped in a JSON string, or percent-encoded, naming its kind, test and lines', () => {
    const log = [
      '10:00:01 INFO  GET /api/health 200 1 ms',
      `10:00:02 INFO  cookie was ${cookie.value}`,
      `{"level":30,"msg":"body","password":${JSON.stringify(password.value)}}`,
      `10:00:03 INFO  GET /x?p=${encodeURIComponent(password.value)}`,
    ].join('\n');
    expect(findSecretLeaks(log, [password, cookie, password])).toEqual([
      { kind: password.kind, test: password.test, lines: [3, 4] },
      { kind: cookie.kind, test: cookie.test, lines: [2] },
    ]);
  });

  it('ignores values short enough to match any number, and the first-run set-up line the server prints on purpose', () => {
    const token: RecordedSecret = { kind: 'the "token" field sent to /api/setup/admin', test: 'setup', value: 'S3tupT0kenOfFortyThreeCharacters_abcdefghij' };
    const log = `No admin account yet. Create the first one within the hour, once, at: http://127.0.0.1:3000/secured/v1/setup#token=${token.value}\n12:00:00 INFO  took 123456 ms`;
    expect(findSecretLeaks(log, [code, token])).toEqual([]);
    expect(findSecretLeaks(`${log}\n12:00:01 INFO  ${token.value}`, [token])).toEqual([{ kind: token.kind, test: token.test, lines: [3] }]);
  });
});

describe('the report of a leak', () => {
  it('names the kind, the test and the lines, never the value', () => {
    const text = describeLeaks([{ kind: cookie.kind, test: cookie.test, lines: [2, 9] }], '/tmp/server.log');
    expect(text).toContain('a session cookie (sid), used by "portal › reads", on line(s) 2, 9');
    expect(text).not.toContain(cookie.value);
  });
});

describe('readRecordedSecrets', () => {
  it('reads one secret a line, skips a line cut short, and is empty when no test recorded any', () => {
    const file = path.join(dir, 'secrets.jsonl');
    expect(readRecordedSecrets(file)).toEqual([]);
    writeFileSync(file, `${JSON.stringify(password)}\n{"kind":"a ses\n${JSON.stringify(cookie)}\n`);
    expect(readRecordedSecrets(file)).toEqual([password, cookie]);
  });
});
