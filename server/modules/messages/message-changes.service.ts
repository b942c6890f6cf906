import { pick, recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import { conflict, forbidden, notFound } from '../../../common/errors.ts';
import { MESSAGE_EDIT_WINDOW_MS, MESSAGE_TEXTS, type Message, type MessageEvent, type MessageVersion } from '../../../common/schemas/messages.ts';
import { messageFiles, messages, messageVersions } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { notifySql } from '../../events/pg-events.ts';
import { MESSAGE_EVENTS_CHANNEL } from '../../events/portal-events.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { projectScope } from '../projects/project-scope.ts';
import { findMessage, recordClientReads, unreadFor, type Viewer } from './messages.service.ts';

// The author's corrections (decision 244): within 15 minutes of sending, the author may edit a
// message or remove it. Each change is one conditional UPDATE (author, not removed, window still
// open at the server's clock), so two tabs racing, or a request arriving at 15:00.001, cannot slip
// past the rule; only when nothing matched does a second read say why.

/** The edit window's condition at `now`: the message is younger than the window. */
const stillOpen = (now: Date) => gt(messages.createdAt, new Date(now.getTime() - MESSAGE_EDIT_WINDOW_MS));

/** Why a change matched nothing: 404 unseen (as a missing one), 403 someone else's, 409 removed or too old. */
async function refusal(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<never> {
  const message = await findMessage(app, viewer, messageId);
  if (message.senderId._id !== viewer._id) throw forbidden(MESSAGE_TEXTS.notAuthor);
  if (message.deletedAt) throw conflict(MESSAGE_TEXTS.alreadyRemoved);
  throw conflict(MESSAGE_TEXTS.editWindowOver);
}

/**
 * Inside a change's transaction: an author's message in an archived project (or of an archived
 * client) stays as it is until a restore (issue 22); the project row is share-locked against an
 * archive until the commit. Only the author's own messages are looked at, so no one else learns
 * more than the 403/404 of `refusal`.
 */
async function lockOwnMessageProject(tx: DbExecutor, viewer: Viewer, messageId: string): Promise<void> {
  const [own] = await tx.select({ projectId: messages.projectId }).from(messages).where(and(eq(messages.id, messageId), eq(messages.senderId, viewer._id)));
  if (own) await lockWritableProject(tx, viewer, own.projectId);
}

/** Tells every open thread of the project (staff and its client) that the message changed. */
function changeEvent(type: MessageEvent['type'], row: { projectId: string; clientId: string }, messageId: string | null) {
  const event: MessageEvent = { type, projectId: row.projectId, clientId: row.clientId, messageId };
  return notifySql(MESSAGE_EVENTS_CHANNEL, event);
}

/**
 * The author corrects the text (and, when given, the subject) of a message sent less than 15 minutes
 * ago. What it said until now becomes an earlier version in the same transaction (decision 259): the
 * row is locked first, so two tabs editing at once file two versions in order, never one lost.
 */
export async function editMessage(app: FastifyInstance, viewer: Viewer, messageId: string, input: { subject?: string; text: string }, who: AuditContext): Promise<Message> {
  const now = app.clock.now();
  const row = await app.db.transaction(async (tx) => {
    await lockOwnMessageProject(tx, viewer, messageId);
    const [before] = await tx
      .select({ subject: messages.subject, text: messages.text, createdAt: messages.createdAt, editedAt: messages.editedAt })
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.senderId, viewer._id), isNull(messages.deletedAt), stillOpen(now)))
      .for('update');
    if (!before) return undefined;
    const [updated] = await tx
      .update(messages)
      .set({ text: input.text, ...(input.subject === undefined ? {} : { subject: input.subject }), editedAt: now })
      .from(projects)
      .where(and(eq(messages.id, messageId), eq(projects.id, messages.projectId)))
      .returning({ projectId: messages.projectId, clientId: projects.clientId });
    await tx.insert(messageVersions).values({ messageId, subject: before.subject, text: before.text, writtenAt: before.editedAt ?? before.createdAt, replacedAt: now });
    await tx.execute(changeEvent('message.edited', updated, messageId));
    await recordAudit(tx, who, { action: 'message.edit', entityId: messageId, projectId: updated.projectId, before: pick(before, input), after: input });
    return updated;
  });
  if (!row) return refusal(app, viewer, messageId);
  return findMessage(app, viewer, messageId);
}

/**
 * Staff read what an edited message said before (decision 259): its earlier versions, newest first
 * (none for a message never edited). A missing message is 404.
 */
export async function listMessageVersions(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<MessageVersion[]> {
  await findMessage(app, viewer, messageId);
  const rows = await app.db
    .select({ subject: messageVersions.subject, text: messageVersions.text, writtenAt: messageVersions.writtenAt, replacedAt: messageVersions.replacedAt })
    .from(messageVersions)
    .where(eq(messageVersions.messageId, messageId))
    .orderBy(desc(messageVersions.replacedAt), desc(messageVersions.writtenAt));
  return rows.map((r) => ({ ...r, writtenAt: r.writtenAt.toISOString(), replacedAt: r.replacedAt.toISOString() }));
}

/**
 * The author removes a message sent less than 15 minutes ago: the row stays in the thread as 'This
 * message was removed' (the order and the read receipts around it keep their meaning), its subject,
 * text, earlier versions and attachment rows go in the same transaction, and the stored files after the commit (a
 * file whose row is gone is unreachable; a row whose file is gone would be a broken link). A removed
 * message no longer waits for anyone: it counts as read, so every unread count (and its partial
 * index) stays right without knowing about removal.
 */
export async function deleteMessage(app: FastifyInstance, viewer: Viewer, messageId: string, log: FastifyBaseLogger, who: AuditContext): Promise<Message> {
  const now = app.clock.now();
  const result = await app.db.transaction(async (tx) => {
    await lockOwnMessageProject(tx, viewer, messageId);
    const [old] = await tx.select({ subject: messages.subject, text: messages.text }).from(messages).where(eq(messages.id, messageId));
    const [updated] = await tx
      .update(messages)
      .set({ subject: '', text: '', deletedAt: now, isRead: true })
      .from(projects)
      .where(and(eq(messages.id, messageId), eq(messages.senderId, viewer._id), isNull(messages.deletedAt), stillOpen(now), eq(projects.id, messages.projectId)))
      .returning({ projectId: messages.projectId, clientId: projects.clientId });
    if (!updated) return null;
    const files = await tx.delete(messageFiles).where(eq(messageFiles.messageId, messageId)).returning({ storageKey: messageFiles.storageKey });
    // Its earlier texts go with it (decision 259); only the staff-only audit log keeps what it said (decision 270).
    await tx.delete(messageVersions).where(eq(messageVersions.messageId, messageId));
    await tx.execute(changeEvent('message.deleted', updated, messageId));
    await recordAudit(tx, who, { action: 'message.delete', entityId: messageId, projectId: updated.projectId, before: { ...old, attachments: files.length } });
    return { storageKeys: files.map((f) => f.storageKey) };
  });
  if (!result) return refusal(app, viewer, messageId);
  for (const key of result.storageKeys) {
    await app.storage.delete(key).catch((err: unknown) => log.warn({ err }, 'could not delete a removed message attachment'));
  }
  return findMessage(app, viewer, messageId);
}

/**
 * 'Mark all as read': every message of the project's thread waiting for this viewer, in one
 * statement, and one live event so the viewer's other tabs (and, for staff, the other admins)
 * update their counters. A project outside the viewer's scope answers 404 like a missing one.
 */
export async function markThreadRead(app: FastifyInstance, viewer: Viewer, projectId: string): Promise<number> {
  const [project] = await app.db
    .select({ id: projects.id, clientId: projects.clientId })
    .from(projects)
    .where(and(eq(projects.id, projectId), projectScope(viewer)))
    .limit(1);
  if (!project) throw notFound('Project not found');
  // A client person's reads are their own (decision 281); staff mark the shared flag.
  if (viewer.role !== 'admin') return app.db.transaction((tx) => recordClientReads(app, tx, viewer, sql`${messages.projectId} = ${projectId}`, 'thread.read', { projectId, messageId: null }));
  return app.db.transaction(async (tx) => {
    const marked = await tx
      .update(messages)
      .set({ isRead: true, readAt: app.clock.now(), readById: viewer._id })
      // unreadFor names the project (a member's organisation and limits; decision 279).
      .from(projects)
      .where(and(eq(projects.id, messages.projectId), eq(messages.projectId, projectId), unreadFor(viewer)))
      .returning({ id: messages.id });
    if (marked.length > 0) await tx.execute(changeEvent('thread.read', { projectId, clientId: project.clientId }, null));
    return marked.length;
  });
}

