import { randomInt } from 'node:crypto';
import net from 'node:net';

// Below Linux's ephemeral range (32768-60999), from which the kernel picks the local port of every
// outgoing connection: a port found free there can be taken by a database client a moment later,
// before the process meant to listen on it starts. Random, so parallel test files rarely meet.
const LOW = 20_000;
const HIGH = 32_000;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port that is free on loopback right now, outside the range the kernel gives out by itself. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(LOW, HIGH);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 100 tries`);
}
