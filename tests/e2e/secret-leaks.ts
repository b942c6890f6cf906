import { existsSync, readFileSync } from 'node:fs';

// Decision 177: every browser run greps the server's whole log (tests/e2e/start-server.ts writes
// it) for the secrets the tests used (tests/e2e/secret-recorder.ts records them). This file is the
// check; it never prints a secret, only its kind, the test that used it and the log line.

/** One recorded secret: what it is, the test that used it, and its value. */
export interface RecordedSecret {
  kind: string;
  test: string;
  value: string;
}

export interface SecretLeak {
  kind: string;
  test: string;
  /** 1-based line numbers of the log where it appears (the first few). */
  lines: number[];
}

/** Shorter values (a six-digit one-time code) could match any number in a log by chance. */
export const SECRET_MIN_LENGTH = 8;

/**
 * The one line a token may appear in on purpose: the first-run set-up link the server prints while
 * no admin exists (decisions 160 and 164). It is left out of the search.
 */
const DELIBERATE_LINE = /No admin account yet\. Create the first one .* at: \S+#token=\S+/;

/** The forms a value takes in a log line: as it is, escaped inside a JSON string, percent-encoded. */
function spellings(value: string): string[] {
  return [...new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)])];
}

/** The recorded secrets that appear in the log, at most one entry per secret value. */
export function findSecretLeaks(log: string, secrets: RecordedSecret[]): SecretLeak[] {
  const lines = log.split('\n').map((line) => (DELIBERATE_LINE.test(line) ? '' : line));
  const seen = new Set<string>();
  const leaks: SecretLeak[] = [];
  for (const secret of secrets) {
    if (secret.value.length < SECRET_MIN_LENGTH || seen.has(secret.value)) continue;
    seen.add(secret.value);
    const forms = spellings(secret.value);
    const found: number[] = [];
    for (let i = 0; i < lines.length && found.length < 5; i++) {
      if (forms.some((f) => lines[i].includes(f))) found.push(i + 1);
    }
    if (found.length) leaks.push({ kind: secret.kind, test: secret.test, lines: found });
  }
  return leaks;
}

/** The recorded secrets of a run (one JSON object a line); none when no test recorded any. */
export function readRecordedSecrets(file: string): RecordedSecret[] {
  if (!existsSync(file)) return [];
  const secrets: RecordedSecret[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as Partial<RecordedSecret>;
      if (typeof entry.value === 'string' && typeof entry.kind === 'string') secrets.push({ kind: entry.kind, test: String(entry.test ?? ''), value: entry.value });
    } catch {
      // A line cut short by a worker that was killed: the others still count.
    }
  }
  return secrets;
}

/** What the run says when secrets leaked: kinds, tests and line numbers, never a value. */
export function describeLeaks(leaks: SecretLeak[], logFile: string): string {
  return [
    `${leaks.length} secret(s) used by the browser tests appear in the server's log (${logFile}):`,
    ...leaks.map((l) => `  - ${l.kind}, used by "${l.test}", on line(s) ${l.lines.join(', ')}`),
    'No log line may hold a password, token or session cookie (decisions 164 and 177). The values are not printed here.',
  ].join('\n');
}
