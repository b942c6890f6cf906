import { and, eq, sql } from 'drizzle-orm';
import { conflict, notFound } from '../../../common/errors.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { clientInScope, projectScope, type ScopeViewer } from './project-scope.ts';
import { IS_CLIENT_ACCOUNT } from '../organisations/client-scope.ts';

// An archived project, or any project of an archived client, is read-only (decision 247): every
// write to it first takes a KEY SHARE lock on the project and client rows (lockWritableProject), and
// archiving takes FOR UPDATE on those rows, which conflicts with it, so a write and an archive never
// interleave: the write either commits before the archive or waits for it and is refused. KEY SHARE,
// not SHARE: the last-activity triggers (decision 258) and edits then update these rows in the same
// transaction, and two writers holding SHARE would each wait for the other's lock to update (a
// deadlock); KEY SHARE does not conflict with an update that leaves the key alone.

export const PROJECT_ARCHIVED = 'This project is archived: restore it before changing it';

/**
 * Inside a writing transaction: locks the project (if the viewer may see it) and its client against archiving until the
 * commit and answers its client's id; refuses (409) when either is archived, 404 when missing.
 */
export async function lockWritableProject(tx: DbExecutor, viewer: ScopeViewer, projectId: string): Promise<{ clientId: string; status: string }> {
  const [row] = await tx
    .select({ clientId: projects.clientId, status: projects.status, archivedAt: projects.archivedAt, clientArchivedAt: users.archivedAt })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.clientId))
    .where(and(eq(projects.id, projectId), projectScope(viewer)))
    .for('key share');
  // Outside the viewer's scope (decision 277) is the same 404 as missing.
  if (!row) throw notFound('Project not found');
  if (row.archivedAt || row.clientArchivedAt) throw conflict(PROJECT_ARCHIVED);
  return { clientId: row.clientId, status: row.status };
}

export const CLIENT_ARCHIVED = 'This client is archived: restore the client before changing it';

/**
 * Inside a writing transaction: locks a client against archiving until the commit; 409 when archived,
 * 404 when missing or outside the viewer's scope (when one is given). Answers its status.
 */
export async function lockWritableClient(tx: DbExecutor, clientId: string, viewer?: ScopeViewer): Promise<{ status: string }> {
  const [row] = await tx
    .select({ archivedAt: users.archivedAt, status: users.status })
    .from(users)
    .where(and(eq(users.id, clientId), eq(users.role, 'client'), IS_CLIENT_ACCOUNT, viewer && clientInScope(viewer, sql.raw('users.id'))))
    .for('key share');
  if (!row) throw notFound('Client not found');
  if (row.archivedAt) throw conflict(CLIENT_ARCHIVED);
  return { status: row.status };
}

