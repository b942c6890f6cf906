import type { DbExecutor } from '../mail/mailer.ts';
import { notifySql } from './pg-events.ts';

/**
 * The channel that tells every process a blog post changed: the blog module writes it, the public
 * articles' cache (articles.plugin.ts) listens. One name for both, so neither can drift alone.
 */
export const BLOG_CHANGED_CHANNEL = 'blog_changed';

/** Announces a post's change; call it with the writing transaction (it is heard only on commit). */
export async function publishBlogChange(tx: DbExecutor, id: string): Promise<void> {
  await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id }));
}
