import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// The real web app, built once for the server tests that render its pages (decision 289). The build
// lives in the project folder (build-vitest/, ignored by git) because its server bundle resolves
// its packages from node_modules. It is made again when any source of the app is newer than it.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const VITEST_BUILD_DIR = path.join(ROOT, 'build-vitest');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the app into build-vitest/ unless an up-to-date build is there; sets BUILD_DIR to it. */
export function ensureAppBuild(): string {
  const serverIndex = path.join(VITEST_BUILD_DIR, 'server', 'index.js');
  const sources = Math.max(...['app', 'common'].map((d) => newestSource(path.join(ROOT, d))), statSync(path.join(ROOT, 'react-router.config.ts')).mtimeMs);
  if (!existsSync(serverIndex) || statSync(serverIndex).mtimeMs < sources) {
    execFileSync('npx', ['react-router', 'build'], { cwd: ROOT, env: { ...process.env, BUILD_DIR: VITEST_BUILD_DIR }, stdio: 'ignore' });
  }
  process.env.BUILD_DIR = VITEST_BUILD_DIR;
  return VITEST_BUILD_DIR;
}
