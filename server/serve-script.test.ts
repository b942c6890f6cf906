import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

// `npm run serve`, the README's way to start the built server, sets glibc's malloc and V8's heap for
// a long-running process (decisions 182 and 178). A stand-in `app/main.js` (BUILD_DIR) reports what
// its process was given, so this needs no build and no database.
function serve(env: Record<string, string>) {
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'serve-script-'));
  onTestFinished(() => rmSync(buildDir, { recursive: true, force: true }));
  mkdirSync(path.join(buildDir, 'app'));
  writeFileSync(
    path.join(buildDir, 'app', 'main.js'),
    `const v8 = require('node:v8');
console.log(JSON.stringify({
  arenas: process.env.MALLOC_ARENA_MAX,
  tunables: process.env.GLIBC_TUNABLES,
  heapLimitMb: v8.getHeapStatistics().heap_size_limit / 1024 / 1024,
}));`,
  );
  const clean = { ...process.env };
  for (const name of ['NODE_OPTIONS', 'GLIBC_TUNABLES', 'MALLOC_ARENA_MAX']) delete clean[name];
  const out = execFileSync('npm', ['run', '--silent', 'serve'], { env: { ...clean, BUILD_DIR: buildDir, ...env }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { arenas?: string; tunables?: string; heapLimitMb: number };
}

describe('npm run serve', { timeout: 60_000 }, () => {
  it('starts node with two malloc arenas, large blocks mmapped, and the old generation capped at 1 GiB', () => {
    const got = serve({});
    expect(got.arenas).toBe('2');
    expect(got.tunables).toBe('glibc.malloc.mmap_threshold=1048576');
    // The old generation's 1024 MB and the young generation's three 4 MB semi-spaces (decision 301).
    expect(got.heapLimitMb).toBe(1024 + 3 * 4);
  });

  it("keeps the operator's own settings", () => {
    const got = serve({ MALLOC_ARENA_MAX: '4', GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=65536', NODE_OPTIONS: '--max-old-space-size=2048' });
    expect(got.arenas).toBe('4');
    expect(got.tunables).toBe('glibc.malloc.trim_threshold=65536');
    expect(got.heapLimitMb).toBe(2048 + 3 * 4);
  });
});
