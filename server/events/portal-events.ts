import { messageEventSchema } from '../../common/schemas/messages.ts';
import { memberMayHearOfProject } from '../modules/organisations/client-scope.ts';
import { mayHearOf, portalChangeSchema, type PortalChange } from '../../common/schemas/portal-events.ts';
import type { UserRole } from '../db/schema/users.ts';
import type { FastifyInstance } from 'fastify';
import type { DbExecutor } from '../mail/mailer.ts';
import { notifySql } from './pg-events.ts';

/** The LISTEN/NOTIFY channel of message events (new messages, read receipts). */
export const MESSAGE_EVENTS_CHANNEL = 'portal_messages';
/** The LISTEN/NOTIFY channel of portal changes other than messages (projects, timelines, reports, clients). */
const PORTAL_CHANGES_CHANNEL = 'portal_changes';

/**
 * Publishes a change. Call it with the writing transaction: the event then exists exactly when the
 * change was committed (decision 061), and every server process on the database hears it.
 */
export async function publishChange(tx: DbExecutor, change: PortalChange): Promise<void> {
  await tx.execute(notifySql(PORTAL_CHANGES_CHANNEL, change));
}

/**
 * Listens for the live events this viewer may hear: new messages and read receipts of its own
 * projects (staff: of all), and changes to projects, timelines, reports and clients exactly when the
 * viewer may read them. `hear` gets the event's name and data; the answer stops listening.
 */
export function listenForViewer(
  app: FastifyInstance,
  viewer: { _id: string; role: UserRole; organisationId?: string | null },
  hear: (event: 'resync' | 'message' | 'change', data: unknown) => void,
): () => void {
  // A client member's limits (decision 279) are read per event of its organisation, so a change of them counts at once.
  const withinLimits = (projectId: string | null, then: () => void) => {
    if (viewer.role === 'admin') return then();
    void memberMayHearOfProject(app, viewer._id, projectId).then((ok) => ok && then(), () => undefined);
  };
  const unsubscribeMessages = app.events.subscribe(MESSAGE_EVENTS_CHANNEL, (event) => {
    if (event.kind === 'resync') return hear('resync', {});
    const parsed = messageEventSchema.safeParse(event.payload);
    // A client hears only about its organisation's projects; staff about all.
    if (!parsed.success || (viewer.role !== 'admin' && parsed.data.clientId !== (viewer.organisationId ?? viewer._id))) return;
    withinLimits(parsed.data.projectId, () => hear('message', parsed.data));
  });
  const unsubscribeChanges = app.events.subscribe(PORTAL_CHANGES_CHANNEL, (event) => {
    // A reconnect tells every channel; the messages channel has already sent the one resync.
    if (event.kind === 'resync') return;
    const parsed = portalChangeSchema.safeParse(event.payload);
    if (!parsed.success || !mayHearOf(viewer, parsed.data)) return;
    withinLimits(parsed.data.projectId, () => hear('change', parsed.data));
  });
  return () => {
    unsubscribeMessages();
    unsubscribeChanges();
  };
}
