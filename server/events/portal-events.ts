import type { PortalChange } from '../../common/schemas/portal-events.ts';
import type { DbExecutor } from '../mail/mailer.ts';
import { notifySql } from './pg-events.ts';

/** The LISTEN/NOTIFY channel of portal changes other than messages (projects, timelines, reports, clients). */
export const PORTAL_CHANGES_CHANNEL = 'portal_changes';

/**
 * Publishes a change. Call it with the writing transaction: the event then exists exactly when the
 * change was committed (decision 061), and every server process on the database hears it.
 */
export async function publishChange(tx: DbExecutor, change: PortalChange): Promise<void> {
  await tx.execute(notifySql(PORTAL_CHANGES_CHANNEL, change));
}
