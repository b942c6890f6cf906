import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every file stored under an uploads folder, as paths relative to it, sorted. */
export function storedFiles(uploadsDir: string): string[] {
  return readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(uploadsDir, path.join(entry.parentPath, entry.name)))
    .sort();
}
