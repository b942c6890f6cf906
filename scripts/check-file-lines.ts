// Part of `npm run lint` (issue 38): fails when a source file of the repository is longer than
// SOURCE_FILE_MAX_LINES, naming each with its count, so a file that has grown past what a reader takes
// in at once is split along its seams rather than let grow; when all pass it prints the five largest,
// the next candidates. `node --import tsx scripts/check-file-lines.ts`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_FILE_MAX_LINES = 400;
const SOURCE_EXTENSIONS = /\.(ts|tsx|js|mjs|css)$/;
// Written by tools, not by hand: Drizzle's migrations and their snapshots, React Router's types, the build.
const GENERATED_FOLDERS = ['drizzle/', '.react-router/', 'build/'];
const LARGEST_SHOWN = 5;

const root = fileURLToPath(new URL('..', import.meta.url));

/** Committed files and new ones not yet added (both as git sees them: ignored files are not listed). */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const files = new Set(listed.split('\0').filter((file) => SOURCE_EXTENSIONS.test(file) && !GENERATED_FOLDERS.some((folder) => file.startsWith(folder))));
  // A file deleted but not yet committed is still in the index.
  return [...files].filter((file) => existsSync(path.join(root, file)));
}

/** Lines as an editor shows them: a last line without its newline still counts. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

const counted = sourceFiles()
  .map((file) => ({ file, lines: lineCount(readFileSync(path.join(root, file), 'utf8')) }))
  .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
const tooLong = counted.filter((c) => c.lines > SOURCE_FILE_MAX_LINES);

if (tooLong.length > 0) {
  console.error(`${tooLong.length} source file(s) over ${SOURCE_FILE_MAX_LINES} lines; split each along its seams:`);
  for (const { file, lines } of tooLong) console.error(`  ${file}: ${lines} lines`);
  process.exit(1);
}
console.log(`All ${counted.length} source files are at most ${SOURCE_FILE_MAX_LINES} lines. The largest:`);
for (const { file, lines } of counted.slice(0, LARGEST_SHOWN)) console.log(`  ${file}: ${lines} lines`);
