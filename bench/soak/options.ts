import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    crash: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    port: { type: 'string', default: '3632' },
    'pg-port': { type: 'string', default: '55632' },
    workers: { type: 'string', default: '6' },
    clients: { type: 'string', default: '12' },
    // Extra flags for the server's node (NODE_OPTIONS), e.g. "--max-semi-space-size=4".
    'node-options': { type: 'string', default: '' },
    // Extra environment for the server only (not this process), e.g. GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576.
    'server-env': { type: 'string', multiple: true, default: [] },
    // Seconds of load after which the server counts as warmed up (compiled code, pools, caches):
    // memory after it should stay flat. Default: a third of the run, at most 180 s.
    'warm-up': { type: 'string' },
    // Writes heap snapshots (taken after a full GC) of the server into this folder: after seeding,
    // half-way through the load and at its end, to tell a leak from a high-water mark.
    'heap-snapshots': { type: 'string' },
    // Seconds between memory samples read from /metrics.
    'memory-every': { type: 'string', default: '15' },
  },
});
export const durationMs = args.seconds ? Number(args.seconds) * 1000 : Number(args.minutes ?? 10) * 60_000;
export const PORT = Number(args.port);
export const PG_PORT = Number(args['pg-port']);
export const WORKERS = Number(args.workers);
export const CLIENTS = Number(args.clients);
export const ROUNDS = args.crash ? Number(args.rounds) : 0;
export const WARM_UP_MS = args['warm-up'] ? Number(args['warm-up']) * 1000 : Math.min(180_000, Math.round(durationMs / 3));
export const BASE = `http://127.0.0.1:${PORT}`;
export const PASSWORD = `soak-${randomBytes(9).toString('base64url')}`;
export const SNAPSHOT_DIR = args['heap-snapshots'] ? path.resolve(args['heap-snapshots']) : '';
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);
