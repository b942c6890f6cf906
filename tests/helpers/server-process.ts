import { spawn, type ChildProcess } from 'node:child_process';

/**
 * How a real server process is started, in one place (the command `npm run serve` runs), so the
 * process tests and the soak follow any change to how the server starts.
 */
function serverCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', 'server/main.ts'] };
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves when the server printed its Ready line; rejects (with its output) if it exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * Starts the server as `npm start` does, with the given environment on top of a quiet test one
 * (API only, loopback). `detached` puts it in a process group of its own, which a crash test kills whole.
 */
export function startServerProcess(
  env: Record<string, string>,
  options: {
    detached?: boolean;
    inherit?: NodeJS.ProcessEnv;
    /** Node's arguments instead of the usual ones (a compiled server). */ args?: string[];
  } = {},
): ServerProcess {
  const { command, args: usual } = serverCommand();
  const args = options.args ?? usual;
  const child = spawn(command, args, {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SERVE_WEB: 'false',
      HOST: '127.0.0.1',
      ...options.inherit,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('Ready: http')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}) before it was ready:\n${output}`));
    });
  });
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => output };
}

/** Stops a server with SIGTERM (if still running) and waits for it to exit. */
export async function stopServerProcess(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  return server.exited;
}
