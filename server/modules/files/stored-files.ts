import type { FastifyInstance } from 'fastify';

// Stored files no row names (issue 22, decision 249): the files of a deletion, removed after its
// commit, and any a crash left behind (a process killed between storing an upload and recording it,
// or between a deletion's commit and its file removal). Files live outside the database, so they
// are removed only once the rows that named them are gone for good.

/**
 * A stored file no row names is kept this long before the sweep removes it: an upload is stored
 * first and recorded a moment later, so a young unnamed file may still be on its way to its row.
 */
export const UNNAMED_FILE_GRACE_MS = 60 * 60_000;
const SWEEP_BATCH = 500;

/** Removes the files of rows already deleted and committed; what fails here the sweep finds later. */
export async function removeStoredFiles(app: FastifyInstance, keys: readonly string[]): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    try {
      await app.storage.delete(key);
      removed++;
    } catch (err) {
      app.log.warn({ err, key }, 'a deleted record’s file stays until the sweep');
    }
  }
  return removed;
}

/** Which of these keys no row names: message attachments, report images, vendor documents, blog images, media, project document versions, change order attachments. */
async function unnamedKeys(app: FastifyInstance, keys: string[]): Promise<string[]> {
  const { rows } = await app.pool.query<{ key: string }>(
    `select k.key from unnest($1::text[]) as k(key)
    where not exists (select 1 from message_files f where f.storage_key = k.key)
      and not exists (select 1 from report_images r where r.storage_key = k.key or r.thumbnail_key = k.key)
      and not exists (select 1 from vendor_documents d where d.storage_key = k.key)
      and not exists (select 1 from blog_images b, jsonb_array_elements(b.variants) v where v ->> 'key' = k.key)
      and not exists (select 1 from media_items m, jsonb_array_elements(m.variants) v where v ->> 'key' = k.key)
      and not exists (select 1 from document_versions dv where dv.storage_key = k.key)
      and not exists (select 1 from change_order_attachments ca where ca.storage_key = k.key)`,
    [keys],
  );
  return rows.map((r) => r.key);
}

/**
 * Removes stored files that no row names and that were last written over an hour ago (app.clock),
 * like the `.part` leftovers of killed uploads; answers how many. Storage that cannot tell a file's
 * age is left alone.
 */
export async function sweepUnnamedFiles(app: FastifyInstance): Promise<number> {
  if (!app.storage.listOlderThan) return 0;
  const olderThan = new Date(app.clock.now().getTime() - UNNAMED_FILE_GRACE_MS);
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    const unnamed = await unnamedKeys(app, batch);
    batch = [];
    for (const key of unnamed) await app.storage.delete(key);
    removed += unnamed.length;
  };
  for await (const key of app.storage.listOlderThan(olderThan)) {
    batch.push(key);
    if (batch.length >= SWEEP_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return removed;
}
