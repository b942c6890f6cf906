import { messageEventSchema } from '../../common/schemas/messages.ts';
import { mayHearOf, portalChangeSchema, type PortalChange } from '../../common/schemas/portal-events.ts';
import type { FastifyInstance } from 'fastify';
import type { DbExecutor } from '../mail/mailer.ts';
import { notifySql } from './pg-events.ts';
import { clientIsInScope, mayHearOfProject, projectScope, type ScopeViewer } from '../modules/projects/project-scope.ts';

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
  viewer: ScopeViewer,
  hear: (event: 'resync' | 'message' | 'change', data: unknown) => void,
): () => void {
  const deliver = scopedDelivery(app, viewer, hear);
  const unsubscribeMessages = app.events.subscribe(MESSAGE_EVENTS_CHANNEL, (event) => {
    if (event.kind === 'resync') return deliver('resync', {}, null);
    const parsed = messageEventSchema.safeParse(event.payload);
    // A client hears only about its organisation's projects (and within its limits, checked on delivery); staff about those in their scope.
    if (!parsed.success || (viewer.role !== 'admin' && parsed.data.clientId !== (viewer.organisationId ?? viewer._id))) return;
    deliver('message', parsed.data, parsed.data);
  });
  const unsubscribeChanges = app.events.subscribe(PORTAL_CHANGES_CHANNEL, (event) => {
    // A reconnect tells every channel; the messages channel has already sent the one resync.
    if (event.kind === 'resync') return;
    const parsed = portalChangeSchema.safeParse(event.payload);
    if (!parsed.success || !mayHearOf(viewer, parsed.data)) return;
    deliver('change', parsed.data, parsed.data);
  });
  return () => {
    unsubscribeMessages();
    unsubscribeChanges();
  };
}

type Hear = (event: 'resync' | 'message' | 'change', data: unknown) => void;

/**
 * How events reach a viewer. Owners and admins: at once (the checks above are all there is). A
 * viewer who sees part of the projects (a project manager, decision 277; a client person, whose
 * project limits may change at any time, decision 279): each event's
 * project (or client) is looked up in their scope when the event arrives, so an assignment or its
 * removal counts from the next event on, without reconnecting. The look-ups run one after another,
 * so the events keep their order; a failed look-up drops the event (the page reads again on resync).
 */
function scopedDelivery(app: FastifyInstance, viewer: ScopeViewer, hear: Hear) {
  if (projectScope(viewer) === undefined) {
    return (event: Parameters<Hear>[0], data: unknown) => hear(event, data);
  }
  let queue = Promise.resolve();
  return (event: Parameters<Hear>[0], data: unknown, about: { clientId: string; projectId: string | null } | null) => {
    queue = queue
      .then(async () => {
        const mine = !about || (about.projectId ? await mayHearOfProject(app.db, viewer, about.projectId, about.clientId) : await clientIsInScope(app.db, viewer, about.clientId));
        if (mine) hear(event, data);
      })
      .catch((err: unknown) => app.log.warn({ err }, 'could not check a live event against the scope'));
  };
}
