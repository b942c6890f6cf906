import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import { refuseDeleteWhenInvoiced } from '../invoices/finance-read.ts';
import type { DeleteOutcome } from '../../../common/schemas/archive.ts';
import type { Client } from '../../../common/schemas/clients.ts';
import { projects } from '../../db/schema/projects.ts';
import { clientOrganisations, sessions, users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import { removeStoredFiles } from '../files/stored-files.ts';
import { historyOfProjects, historyRefusal, nameConfirmed, unsentUploadKeys } from '../projects/project-archive.service.ts';
import { findClient } from './clients.service.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { IS_CLIENT_ACCOUNT } from '../organisations/client-scope.ts';

// Archive, restore and delete of clients (issue 22, decisions 247 and 249).

/**
 * Archives (`archived` true) or restores a client. Archiving ends every open session in the same
 * transaction: sessions are read from the database on every request and stream check, so they end
 * at once on every server process; the session read also refuses archived accounts (decision 247).
 */
export async function setClientArchived(app: FastifyInstance, viewer: ScopeViewer, id: string, archived: boolean, who: AuditContext): Promise<Client> {
  await app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ archivedAt: users.archivedAt })
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'client'), IS_CLIENT_ACCOUNT))
      .for('update');
    if (!row) throw notFound('Client not found');
    if (Boolean(row.archivedAt) === archived) return;
    const now = app.clock.now();
    // The whole organisation (decision 279): every member not removed from it, and all their sessions.
    const members = and(eq(users.organisationId, id), isNull(users.removedAt));
    await tx.update(users).set({ archivedAt: archived ? now : null, updatedAt: now }).where(members);
    if (archived) {
      await tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(inArray(sessions.userId, tx.select({ id: users.id }).from(users).where(members)), isNull(sessions.revokedAt)));
    }
    await publishChange(tx, { type: 'client.status', clientId: id, projectId: null, id });
    await recordAudit(tx, who, { action: archived ? 'client.archive' : 'client.restore', entityId: id, before: { archivedAt: row.archivedAt }, after: { archivedAt: archived ? now : null } });
  });
  return findClient(app, viewer, id);
}

/**
 * Deletes a client with its projects. Without history (no reports, messages or files in any of its
 * projects, no uploads of its own) it goes at once; with history only when `confirmName` is its
 * exact name. One transaction; the stored files are removed after the commit (decision 249).
 */
export async function deleteClient(app: FastifyInstance, id: string, confirmName: string | undefined, who: AuditContext): Promise<DeleteOutcome> {
  const { outcome, fileKeys } = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: users.name, email: users.email, username: users.username, status: users.status })
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'client'), IS_CLIENT_ACCOUNT))
      .for('update');
    if (!row) throw notFound('Client not found');
    // Locked too, so no report or message is added to them while they are counted and deleted.
    const projectIds = (await tx.select({ id: projects.id }).from(projects).where(eq(projects.clientId, id)).for('update')).map((p) => p.id);
    await refuseDeleteWhenInvoiced(tx, projectIds, 'client');
    const history = await historyOfProjects(tx, projectIds);
    const memberIds = (await tx.select({ id: users.id }).from(users).where(eq(users.organisationId, id)).for('update')).map((m) => m.id);
    const fileKeys = [...history.fileKeys, ...(await Promise.all(memberIds.map((m) => unsentUploadKeys(tx, m)))).flat()];
    if (history.reports + history.messages + fileKeys.length > 0 && !nameConfirmed(confirmName, row.name)) throw historyRefusal('client', row.name);
    await tx.delete(projects).where(eq(projects.clientId, id));
    // Colleagues first (their messages went with the projects), then the founder, then the organisation.
    await tx.delete(users).where(and(eq(users.organisationId, id), ne(users.id, id)));
    await tx.delete(users).where(eq(users.id, id));
    await tx.delete(clientOrganisations).where(eq(clientOrganisations.id, id));
    await recordAudit(tx, who, { action: 'client.delete', entityId: id, before: { ...row, projects: projectIds.length } });
    await publishChange(tx, { type: 'client.status', clientId: id, projectId: null, id });
    return {
      outcome: { name: row.name, projects: projectIds.length, reports: history.reports, messages: history.messages, files: fileKeys.length },
      fileKeys,
    };
  });
  await removeStoredFiles(app, fileKeys);
  return outcome;
}
