import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';
import { PARTIAL_UPLOAD_IDLE_MS, startRetention, sweepPartialUploads } from './retention.ts';

// `.part` files of uploads whose process was killed are swept at start-up and by the retention job
// (issue 16: 6 were left after 7 kills, and nothing ever removed them).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A leftover as the local storage names it (`<key>.<12 hex>.part`), last written `ageMs` before the app's clock. */
function leftover(relative: string, ageMs: number) {
  const file = path.join(t.uploadsDir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'half a file');
  const at = new Date(t.clock.now().getTime() - ageMs);
  utimesSync(file, at, at);
  return file;
}
const files = () => readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort();

describe('unfinished upload files', () => {
  it('are removed once idle an hour; a stored file and a write still under way stay', async () => {
    leftover('messages/ab/abcdef.0123456789ab.part', PARTIAL_UPLOAD_IDLE_MS + 1000);
    leftover('vendor-applications/x/y.pdf.aaaaaaaaaaaa.part', 3 * PARTIAL_UPLOAD_IDLE_MS);
    leftover('messages/cd/live.bbbbbbbbbbbb.part', 60_000);
    await t.app.storage.put('messages/ef/kept', Buffer.from('a whole file'));
    expect(await sweepPartialUploads(t.app)).toBe(2);
    expect(files()).toEqual(['kept', 'live.bbbbbbbbbbbb.part']);
  });

  it('are swept at start-up, without waiting for the first retention round', async () => {
    leftover('reports/r/old.cccccccccccc.part', 2 * PARTIAL_UPLOAD_IDLE_MS);
    const stop = startRetention(t.app, 24 * 60 * 60_000);
    try {
      await expect.poll(() => files().includes('old.cccccccccccc.part'), { timeout: 5000 }).toBe(false);
    } finally {
      stop();
    }
  });
});
