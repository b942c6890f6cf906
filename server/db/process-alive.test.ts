import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isRunning } from './embedded-postgres.ts';

// The data-directory lock (embedded-postgres.ts) refuses a start only while its owner runs. A server
// killed a moment ago can linger as a zombie until it is reaped; restarted at once (the soak's kill
// rounds did), the new server must not take that for a live owner.
describe('isRunning', () => {
  it('counts a running process as alive, and a zombie or a finished one as not', async () => {
    // `sleep 0` becomes a child of `sleep 3`, which never reaps it: a zombie for three seconds.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 3'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
    for (let i = 0; i < 50 && !/\) Z/.test(execFileSync('cat', [`/proc/${zombie}/stat`]).toString()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(isRunning(zombie)).toBe(false);
    expect(isRunning(parent.pid!)).toBe(true);
    expect(isRunning(process.pid)).toBe(true);
    parent.kill('SIGKILL');
    await new Promise((r) => parent.once('exit', r));
    expect(isRunning(parent.pid!)).toBe(false);
  });
});
