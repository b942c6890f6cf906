import type { DbExecutor } from '../../mail/mailer.ts';
import { notifySql } from '../../events/pg-events.ts';

/**
 * The channel that tells every process a section was published: the publishing transaction writes
 * it, each process's snapshot (published.ts) listens and reads the section again. It carries the
 * section's name, never the document (NOTIFY payloads are small).
 */
export const SITE_CONTENT_CHANNEL = 'site_content_published';

export async function announcePublish(tx: DbExecutor, section: string, revisionId: string): Promise<void> {
  await tx.execute(notifySql(SITE_CONTENT_CHANNEL, { section, revisionId }));
}
