import { pick, recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, eq, isNotNull, isNull, sql, type Column, type SQL, type Table } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../../common/errors.ts';
import type { Client, ClientListQuery, ClientStatus, UpdateClientResponse } from '../../../common/schemas/clients.ts';
import type { ListCursors, Pagination, PaginationQuery } from '../../../common/schemas/pagination.ts';
import type { ListSort } from '../../../common/schemas/archive.ts';
import { keyset, type KeysetOrder } from '../../db/keyset.ts';
import { authTokens } from '../../db/schema/auth.ts';
import { messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import { lockWritableClient } from '../projects/project-locks.ts';
import { clientInScope, projectScope, projectScopeOn, type ScopeViewer as Viewer } from '../projects/project-scope.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { USERNAME_RULE } from '../../../common/schemas/auth.ts';
import { createClientInvitation, generateUniqueUsername, isUsernameFree } from '../auth/invitations.service.ts';
import { IS_CLIENT_ACCOUNT, personOf } from '../organisations/client-scope.ts';

const UNIQUE_VIOLATION = '23505';

/**
 * `table.column`, always qualified. Drizzle writes bare column names in a select list, and inside a
 * correlated subquery a bare "id" would silently mean the inner table's id.
 */
const qualified = (table: Table, column: Column): SQL => sql`${table}.${sql.identifier(column.name)}`;

/** The client row's id, qualified for the correlated subqueries and the scope. */
const CLIENT_ID = qualified(users, users.id);

/**
 * How many projects a client has that the viewer may see (all, for owners and admins): a correlated
 * count, evaluated inside the one list query.
 */
const projectCount = (viewer: Viewer): SQL<number> =>
  sql<number>`(select count(*) from ${projects} counted where counted.client_id = ${CLIENT_ID} and ${projectScopeOn(viewer, 'counted')})`.mapWith(Number);

/**
 * How many of the client's messages no admin has read yet (sent to the company: no receiver), in
 * the projects the viewer may see: a correlated count, evaluated inside the same single query as
 * the list, so the list stays one query. The scope is left out when it is everything, so owners'
 * and admins' count keeps its plan.
 */
function clientUnreadCount(viewer: Viewer): SQL<number> {
  const inScope = projectScope(viewer) === undefined ? sql`` : sql` and exists (select 1 from ${projects} scoped where scoped.id = ${qualified(messages, messages.projectId)} and ${projectScopeOn(viewer, 'scoped')})`;
  return sql<number>`(select count(*) from ${messages} where ${qualified(messages, messages.senderId)} = ${CLIENT_ID} and ${qualified(messages, messages.receiverId)} is null and not ${qualified(messages, messages.isRead)}${inScope})`.mapWith(Number);
}

/**
 * When the client's newest live invitation link expires (null: none): a correlated subquery of the
 * same single list query. Compared with app.clock's now, so tests can move time.
 */
function liveInvitationExpirySql(now: Date): SQL<Date | null> {
  return sql<Date | null>`(select max(${qualified(authTokens, authTokens.expiresAt)}) from ${authTokens}
    where ${qualified(authTokens, authTokens.userId)} = ${qualified(users, users.id)}
      and ${qualified(authTokens, authTokens.purpose)} = 'invitation'
      and ${qualified(authTokens, authTokens.usedAt)} is null
      and ${qualified(authTokens, authTokens.revokedAt)} is null
      and ${qualified(authTokens, authTokens.expiresAt)} > ${now.toISOString()}::timestamptz)`.mapWith((v: Date | string | null) =>
    v === null ? null : new Date(v),
  );
}

const clientColumnsAt = (now: Date, viewer: Viewer) => ({
  id: users.id,
  name: users.name,
  email: users.email,
  username: users.username,
  status: users.status,
  createdAt: users.createdAt,
  archivedAt: users.archivedAt,
  projects: projectCount(viewer),
  unreadCount: clientUnreadCount(viewer),
  hasPassword: sql<boolean>`(${qualified(users, users.passwordHash)} is not null)`.mapWith(Boolean),
  invitationExpiresAt: liveInvitationExpirySql(now),
});

type ClientRow = {
  id: string;
  name: string;
  email: string;
  username: string | null;
  status: string;
  createdAt: Date;
  archivedAt: Date | null;
  projects: number;
  unreadCount: number;
  hasPassword: boolean;
  invitationExpiresAt: Date | null;
};

function toClient(row: ClientRow): Client {
  return {
    ...personOf(row),
    // users.status is free text in the table; anything unexpected reads as the pipeline's start.
    status: row.status === 'in-progress' || row.status === 'completed' ? row.status : 'new',
    unreadCount: row.unreadCount,
    projects: row.projects,
    createdAt: row.createdAt.toISOString(),
    invitation: row.hasPassword ? 'accepted' : row.invitationExpiresAt ? 'pending' : 'none',
    invitationExpiresAt: !row.hasPassword && row.invitationExpiresAt ? row.invitationExpiresAt.toISOString() : null,
    archivedAt: row.archivedAt ? row.archivedAt.toISOString() : null,
  };
}

/**
 * Which clients a list shows: those the viewer may see (a project manager the clients of their
 * projects, decision 277), not archived unless asked (decision 248), of one status if asked.
 */
function clientFilter(viewer: Viewer, status: ClientListQuery['status']): SQL | undefined {
  return and(
    eq(users.role, 'client'),
    clientInScope(viewer, CLIENT_ID),
    IS_CLIENT_ACCOUNT,
    status === 'archived' ? isNotNull(users.archivedAt) : status === 'all' ? undefined : isNull(users.archivedAt),
    status && status !== 'archived' && status !== 'all' ? eq(users.status, status) : undefined,
  );
}

/** The client list's orders (decision 248), each walked by keyset (decision 257). */
const CLIENT_ORDERS: Record<ListSort, KeysetOrder> = {
  name: { name: 'name', key: sql`lower(${users.name})`, kind: 'text', direction: 'asc', id: users.id },
  // Last activity is stored and kept by the database (migration 0021, decision 258): an index walk.
  activity: { name: 'activity', key: users.lastActivityAt, kind: 'time', direction: 'desc', id: users.id },
  date: { name: 'date', key: users.createdAt, kind: 'time', direction: 'desc', id: users.id },
};

/**
 * One page of clients with project and unread counts, in one query: newest first unless another
 * order is asked for; archived ones only under their own filter. By page number (the
 * specification's call) or after or before a cursor (the same cost at any depth).
 */
export async function listClients(
  app: FastifyInstance,
  viewer: Viewer,
  query: PaginationQuery & Partial<Pick<ClientListQuery, 'status' | 'sort' | 'after' | 'before'>>,
): Promise<{ clients: Client[]; pagination: Pagination; cursors: ListCursors }> {
  const where = clientFilter(viewer, query.status);
  const walk = keyset(CLIENT_ORDERS[query.sort ?? 'date'], query);
  const read = await app.db
    .select({ ...clientColumnsAt(app.clock.now(), viewer), cursorKey: walk.cursorKey })
    .from(users)
    .where(and(where, walk.where))
    .orderBy(...walk.orderBy)
    .limit(walk.limit)
    .offset(walk.offset);
  const { rows, pagination, cursors } = await walk.page(read, async () => (await app.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(users).where(where))[0].n);
  return { clients: rows.map(toClient), pagination, cursors };
}

/** A client the viewer may see; any other is "not found", exactly like a missing one. */
export async function findClient(app: FastifyInstance, viewer: Viewer, id: string): Promise<Client> {
  const [row] = await app.db
    .select(clientColumnsAt(app.clock.now(), viewer))
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'client'), IS_CLIENT_ACCOUNT, clientInScope(viewer, CLIENT_ID)))
    .limit(1);
  if (!row) throw notFound('Client not found');
  return toClient(row);
}

/** A unique-index clash on users as creation words it (the same words for a correction); any other error as it is. */
function uniqueClash(err: unknown, username: string | null | undefined): unknown {
  const pgError = (err as { cause?: { code?: string; constraint?: string } }).cause ?? (err as { code?: string; constraint?: string });
  if (pgError.code !== UNIQUE_VIOLATION) return err;
  return conflict(
    pgError.constraint === 'users_username_unique' ? `The username ${username} is already taken` : 'An account with this e-mail address already exists',
  );
}

/**
 * Creates a client account (no password yet) and sends its invitation (accounts module). The
 * username is the one staff chose, or a free one made from the name or e-mail address.
 */
export async function createClient(
  app: FastifyInstance,
  viewer: Viewer,
  input: { name: string; email: string; username?: string },
  who: AuditContext,
): Promise<{ client: Client; invitationUrl: string; invitationExpiresAt: string; invitationMail: MailOutcome }> {
  if (input.username && !(await isUsernameFree(app, input.username))) {
    throw conflict(`The username ${input.username} is already taken`);
  }
  const username = input.username ?? (await generateUniqueUsername(app, { name: input.name, email: input.email }));
  const now = app.clock.now();
  let id: string;
  try {
    id = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ role: 'client', name: input.name, email: input.email, username, status: 'new', createdAt: now, updatedAt: now })
        .returning({ id: users.id, name: users.name, email: users.email, username: users.username, status: users.status });
      await recordAudit(tx, who, { action: 'client.create', entityId: row.id, after: row });
      return row.id;
    });
  } catch (err) {
    throw uniqueClash(err, username);
  }
  try {
    const invitation = await createClientInvitation(app, { userId: id });
    return {
      client: await findClient(app, viewer, id),
      invitationUrl: invitation.url,
      invitationExpiresAt: invitation.expiresAt.toISOString(),
      invitationMail: invitation.mail,
    };
  } catch (err) {
    // Without its invitation the account is unusable: take it back so staff can simply try again.
    await app.db.delete(users).where(eq(users.id, id)).catch(() => undefined);
    throw err;
  }
}

/** The add-client form's check: whether the typed username is free, and a free one to suggest. */
export async function checkUsername(
  app: FastifyInstance,
  input: { username: string; name: string },
): Promise<{ username: string | null; available: boolean | null; suggestion: string }> {
  const username = input.username || null;
  const available = username ? USERNAME_RULE.test(username) && (await isUsernameFree(app, username)) : null;
  const suggestion = await generateUniqueUsername(app, { wanted: username ?? undefined, name: input.name });
  return { username, available, suggestion };
}

/** Moves a client along the pipeline (new, in-progress, completed); staff hear of it live. */
export async function updateClientStatus(app: FastifyInstance, viewer: Viewer, id: string, status: ClientStatus, who: AuditContext): Promise<Client> {
  const row = await app.db.transaction(async (tx) => {
    const old = await lockWritableClient(tx, id, viewer);
    const [updated] = await tx
      .update(users)
      .set({ status, updatedAt: app.clock.now() })
      .where(and(eq(users.id, id), eq(users.role, 'client'), IS_CLIENT_ACCOUNT))
      .returning({ id: users.id });
    if (updated) await publishChange(tx, { type: 'client.status', clientId: updated.id, projectId: null, id: updated.id });
    if (updated) await recordAudit(tx, who, { action: 'client.status', entityId: id, before: old, after: { status } });
    return updated;
  });
  if (!row) throw notFound('Client not found');
  return findClient(app, viewer, id);
}

/**
 * Corrects a client: any of name, e-mail address, username and status (creation's rules; the same
 * 409 words for a taken username or address). Staff hear of it live. When the address or the
 * username changes while the invitation is still pending, the pending link is revoked in the same
 * transaction (it went to the old address, or names the old username) and a new one is sent to
 * the client as it is now (decision 241); the answer carries it for staff to copy.
 */
export async function updateClient(
  app: FastifyInstance,
  viewer: Viewer,
  id: string,
  input: { name?: string; email?: string; username?: string; status?: ClientStatus },
  who: AuditContext,
): Promise<Omit<UpdateClientResponse, 'success'>> {
  if (input.username && !(await isUsernameFree(app, input.username, id))) throw conflict(`The username ${input.username} is already taken`);
  const now = app.clock.now();
  let reinvite = false;
  try {
    const found = await app.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ name: users.name, email: users.email, username: users.username, status: users.status, hasPassword: sql<boolean>`(${users.passwordHash} is not null)` })
        .from(users)
        .where(and(eq(users.id, id), eq(users.role, 'client'), IS_CLIENT_ACCOUNT, clientInScope(viewer, CLIENT_ID)))
        .for('update');
      if (!before) return false;
      // An archived client is read-only until restored (issue 22).
      await lockWritableClient(tx, id);
      await tx
        .update(users)
        .set({ ...input, updatedAt: now })
        .where(eq(users.id, id));
      const addressChanged = input.email !== undefined && input.email !== before.email.toLowerCase();
      const usernameChanged = input.username !== undefined && input.username !== before.username?.toLowerCase();
      if (!before.hasPassword && (addressChanged || usernameChanged)) {
        const revoked = await tx
          .update(authTokens)
          .set({ revokedAt: now })
          .where(and(eq(authTokens.userId, id), eq(authTokens.purpose, 'invitation'), isNull(authTokens.usedAt), isNull(authTokens.revokedAt), sql`${authTokens.expiresAt} > ${now.toISOString()}::timestamptz`))
          .returning({ id: authTokens.id });
        reinvite = revoked.length > 0;
      }
      await publishChange(tx, { type: 'client.updated', clientId: id, projectId: null, id });
      await recordAudit(tx, who, { action: 'client.update', entityId: id, before: pick(before, input), after: input });
      return true;
    });
    if (!found) throw notFound('Client not found');
  } catch (err) {
    throw uniqueClash(err, input.username);
  }
  if (!reinvite) return { client: await findClient(app, viewer, id) };
  const invitation = await createClientInvitation(app, { userId: id });
  return {
    client: await findClient(app, viewer, id),
    invitation: { url: invitation.url, expiresAt: invitation.expiresAt.toISOString(), mail: invitation.mail },
  };
}
