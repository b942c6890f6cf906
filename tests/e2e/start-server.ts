// Starts the server for the browser tests on a fresh data directory. A PostgreSQL left running by an
// earlier run that was cut short (it runs detached, so it outlives a killed server) is stopped first,
// or it would keep the port and the next run could not start.
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

// Decision 177: the whole log of this run's server, written to E2E_SERVER_LOG as well as to the
// streams Playwright reads, so the end of the run can search it for the secrets the tests used.
// Written synchronously, line by line as the server writes: the check reads it while the server runs.
const logFile = process.env.E2E_SERVER_LOG;
if (logFile) {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = openSync(logFile, 'w');
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (typeof chunk === 'string') writeSync(fd, chunk);
      else writeSync(fd, chunk);
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must be set for the browser-test server');
const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
if (existsSync(pidFile)) {
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100; i++) {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch {
    // gone (or never there)
  }
}
rmSync(dataDir, { recursive: true, force: true });
await import('../../server/main.ts');
