import { utimesSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaPicture, type MediaItem } from '../../../common/schemas/media.ts';
import { mediaUsages } from '../../db/schema/media.ts';
import { flatImage, uploadMedia } from '../../../tests/helpers/media.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { storedFiles } from '../../../tests/helpers/uploads.ts';
import { sweepUnnamedFiles, UNNAMED_FILE_GRACE_MS } from '../files/stored-files.ts';
import { setMediaUsage } from './media-usage.ts';

// The interface the content store calls on publish (decision 286), tested on its own: a place's
// images replace the last set, an unknown id fails the caller's transaction, and a delete that races
// a publish either wins before it or sees its usage.

const PUBLIC_URL = 'https://www.site.example';
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  const owner = await createUser(t, { role: 'admin', name: 'Ola Owner' });
  headers = { cookie: (await signIn(t, owner, 'admin')).cookie, origin: PUBLIC_URL };
});
afterAll(() => t?.close());

async function item(width = 400): Promise<MediaItem> {
  const res = await uploadMedia(t, headers, { filename: 'a.png', contentType: 'image/png', data: await flatImage('png', width, 300) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item;
}
const usagesOf = async (usedIn: string) =>
  (await t.database.db.select().from(mediaUsages).where(eq(mediaUsages.usedIn, usedIn))).map((u) => [u.mediaId, u.label]).sort();

describe('setMediaUsage', () => {
  it("sets a place's images, replaces them on the next publish and clears them with an empty list", async () => {
    const [a, b, c] = [await item(), await item(), await item()];
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'page:home', 'Home page', [a._id, b._id, a._id]));
    expect(await usagesOf('page:home')).toEqual([[a._id, 'Home page'], [b._id, 'Home page']].sort());
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'page:home', 'Home page', [c._id]));
    expect(await usagesOf('page:home')).toEqual([[c._id, 'Home page']]);
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'page:home', 'Home page', []));
    expect(await usagesOf('page:home')).toEqual([]);
  });

  it("refuses an id that names no image, and the caller's whole transaction rolls back", async () => {
    const a = await item();
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'certificate:1', 'Certificates: ISO 9001', [a._id]));
    const gone = '00000000-0000-4000-8000-000000000001';
    await expect(t.database.db.transaction((tx) => setMediaUsage(tx, 'certificate:1', 'Certificates: ISO 9001', [gone]))).rejects.toThrow(
      'An image used in Certificates: ISO 9001 is no longer in the media library',
    );
    expect(await usagesOf('certificate:1')).toEqual([[a._id, 'Certificates: ISO 9001']]);
  });

  it('makes a delete racing a publish wait for it, then refuse (409)', async () => {
    const a = await item();
    let release!: () => void;
    let recorded!: () => void;
    const usageRecorded = new Promise<void>((r) => (recorded = r));
    const publish = t.database.db.transaction(async (tx) => {
      await setMediaUsage(tx, 'team-member:9', 'Team: Chidi Eze', [a._id]);
      recorded();
      await new Promise<void>((r) => (release = r));
    });
    await usageRecorded;
    const del = t.app.inject({ method: 'DELETE', url: `/api/media/${a._id}`, headers });
    // The delete is blocked on the publish's lock; let the publish commit.
    await new Promise((r) => setTimeout(r, 200));
    release();
    await publish;
    const res = await del;
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This image is used in Team: Chidi Eze. Remove it there first.');
  });
});

describe('stored renditions', () => {
  it('are named by their row: the sweep of unnamed files leaves them', async () => {
    const a = await item();
    const files = storedFiles(t.uploadsDir).filter((f) => f.startsWith(`media/${a._id}/`));
    expect(files).toHaveLength(4);
    const old = new Date(t.clock.now().getTime() - 5 * UNNAMED_FILE_GRACE_MS);
    for (const f of files) utimesSync(path.join(t.uploadsDir, f), old, old);
    await sweepUnnamedFiles(t.app);
    expect(storedFiles(t.uploadsDir).filter((f) => f.startsWith(`media/${a._id}/`))).toEqual(files);
  });
});

describe('mediaPicture', () => {
  it('gives AVIF then WebP srcsets, the sizes, the intrinsic size of the largest rendition and the focal point', async () => {
    const a = await item(1000);
    const picture = mediaPicture({ ...a, focalX: 0.25, focalY: 0.8 }, '(min-width: 1024px) 50vw, 100vw');
    const url = (w: number, f: string) => `/api/media/${a._id}/${w}.${f}`;
    expect(picture).toEqual({
      src: url(1000, 'webp'),
      sources: [
        { type: 'image/avif', srcset: `${url(320, 'avif')} 320w, ${url(640, 'avif')} 640w, ${url(960, 'avif')} 960w, ${url(1000, 'avif')} 1000w` },
        { type: 'image/webp', srcset: `${url(320, 'webp')} 320w, ${url(640, 'webp')} 640w, ${url(960, 'webp')} 960w, ${url(1000, 'webp')} 1000w` },
      ],
      sizes: '(min-width: 1024px) 50vw, 100vw',
      width: 1000,
      height: 300,
      alt: 'A crane lifting a steel beam',
      objectPosition: '25% 80%',
    });
    for (const s of picture.sources) {
      for (const candidate of s.srcset.split(', ')) {
        expect((await t.app.inject({ method: 'GET', url: candidate.split(' ')[0]! })).statusCode).toBe(200);
      }
    }
  });
});
