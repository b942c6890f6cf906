import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** An empty React Router build: the web routes register as in production, and no page exists. */
export const EMPTY_SERVER_BUILD =
  "export const routes = {}; export const entry = { module: {} }; export const assets = { routes: {}, entry: { module: '', imports: [] }, url: '', version: '1' }; export const future = {}; export const publicPath = '/'; export const assetsBuildDirectory = ''; export const ssr = true; export const isSpaMode = false; export const prerender = [];\n";

/** A build that re-exports a fixture module (tests/fixtures/*.tsx) as its server build. */
export const fixtureServerBuild = (fixture: string) => `export * from ${JSON.stringify(path.resolve(fixture))};\n`;

/**
 * A stand-in web build in a new temporary folder (server/index.js with `serverIndex`, an empty
 * client/), set as BUILD_DIR for the web plugin; answers the folder.
 */
export function standInWebBuild(prefix: string, serverIndex: string): string {
  const buildDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  mkdirSync(path.join(buildDir, 'server'), { recursive: true });
  mkdirSync(path.join(buildDir, 'client'), { recursive: true });
  writeFileSync(path.join(buildDir, 'server', 'index.js'), serverIndex);
  process.env.BUILD_DIR = buildDir;
  return buildDir;
}
