// Starts the server for the browser tests on a fresh data directory. A PostgreSQL left running by an
// earlier run that was cut short (it runs detached, so it outlives a killed server) is stopped first,
// or it would keep the port and the next run could not start.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

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
