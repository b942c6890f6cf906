import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/server-process.ts';

/**
 * A server of a spec's own, for what the shared browser-test server cannot be (a fresh install, a
 * setting it lacks): on the run's ports plus `offset`, with a fresh data folder named after `name`.
 */
export function ownServer(name: string, offset: number) {
  const port = Number(process.env.E2E_PORT ?? 3210) + offset;
  const pgPort = Number(process.env.E2E_PG_PORT ?? 54410) + offset;
  const base = `http://127.0.0.1:${port}`;
  // Not mkdtemp: its 0700 folder would shut out the postgres user the embedded database runs as under root.
  const dataDir = path.join(os.tmpdir(), `${name}-${port}`);
  let server: ServerProcess | undefined;
  const output = () => server?.output() ?? '';

  return {
    base,
    output,
    /** Starts it with `env` on top of the test settings and of `inherited` (this shell's, unless told). */
    start(env: Record<string, string>, inherited: NodeJS.ProcessEnv = process.env) {
      rmSync(dataDir, { recursive: true, force: true });
      const settings = {
        NODE_ENV: 'test',
        SERVE_WEB: 'true',
        PORT: String(port),
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        PUBLIC_URL: base,
        LOG_LEVEL: 'warn',
        BUILD_DIR: process.env.BUILD_DIR ?? 'build',
      };
      server = startServerProcess({ ...settings, ...env }, { inherit: inherited });
    },
    /** Waits until `ready` holds; fails with what the server printed when it exits first or takes over 150 s. */
    async waitUntil(ready: () => boolean | Promise<boolean>, failure: string) {
      const deadline = Date.now() + 150_000;
      while (!(await ready())) {
        if (Date.now() > deadline || server?.child.exitCode !== null) throw new Error(`${failure}:\n${output()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    /** Stops it (SIGTERM, awaited) and removes its data folder. */
    async stop() {
      if (server) await stopServerProcess(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
