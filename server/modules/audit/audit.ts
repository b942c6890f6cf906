import type { FastifyRequest } from 'fastify';
import type { PoolClient } from 'pg';
import { auditEvents } from '../../db/schema/audit.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { clientAddressOf } from '../auth/admin-network.ts';

/** Who is acting and from where; made once per request by `auditOf`, or `SYSTEM_ACTOR` outside one. */
export interface AuditContext {
  actorId: string | null;
  actorLabel: string;
  address: string | null;
  /** The app's clock at the request (a fake one in tests); the database's time when absent. */
  at?: Date;
}

export const SYSTEM_ACTOR: AuditContext = { actorId: null, actorLabel: 'system', address: null };

/** A known user acting from an address, as the audit log names them ('admin: Ada Obi'). */
export const auditOfUser = (
  user: { _id: string; name: string; role: string },
  address: string | null,
  at?: Date,
): AuditContext => ({
  actorId: user._id,
  actorLabel: `${user.role}: ${user.name}`,
  address,
  at,
});

/** The signed-in caller of a request (the system, with the address, when nobody is signed in). */
export function auditOf(request: FastifyRequest): AuditContext {
  const user = request.user;
  const address = clientAddressOf(request.server.config, request);
  const at = request.server.clock.now();
  return user ? auditOfUser(user, address, at) : { ...SYSTEM_ACTOR, address, at };
}

// Never written to the log, whatever a caller passes: a secret would outlive its rotation there.
const SECRET_KEY = /password|hash|token|secret|recovery|otp|cookie/i;
const REDACTED = '[redacted]';

type Fields = Record<string, unknown>;
const plain = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : v);
const same = (a: unknown, b: unknown) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

/**
 * Only the fields that changed, secrets redacted. A created thing has no `before`, a deleted one no
 * `after`; then every field of the other side is kept.
 */
function changedFields(
  before: Fields | null | undefined,
  after: Fields | null | undefined,
): { before: Fields | null; after: Fields | null } {
  const keep = (side: Fields | null | undefined, keys: string[]) =>
    side
      ? Object.fromEntries(
          keys.filter((k) => k in side).map((k) => [k, SECRET_KEY.test(k) ? REDACTED : plain(side[k])]),
        )
      : null;
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (k) => !before || !after || !same(before[k], after[k]),
  );
  return { before: keep(before, keys), after: keep(after, keys) };
}

export interface AuditChange {
  /** '<entity>.<verb>': 'project.update', 'client.archive'. */
  action: string;
  entityId: string;
  projectId?: string | null;
  before?: Fields | null;
  after?: Fields | null;
}

/** The row of one change; null when an update changed nothing (it is not recorded). */
function auditRow(who: AuditContext, change: AuditChange): typeof auditEvents.$inferInsert | null {
  const { before, after } = changedFields(change.before, change.after);
  if (change.before && change.after && Object.keys(after ?? {}).length === 0) return null;
  return {
    ...(who.at ? { at: who.at } : {}),
    actorId: who.actorId,
    actorLabel: who.actorLabel,
    address: who.address,
    action: change.action,
    entityKind: change.action.split('.')[0],
    entityId: change.entityId,
    projectId: change.projectId ?? null,
    before,
    after,
  };
}

/**
 * Records one change in the caller's transaction, so it exists exactly when the change does (a
 * refused or failed change rolls it back).
 */
export async function recordAudit(tx: DbExecutor, who: AuditContext, change: AuditChange): Promise<void> {
  const row = auditRow(who, change);
  if (row) await tx.insert(auditEvents).values(row);
}

/** The same, on a raw client inside its own open transaction (the message send statement's). */
export async function recordAuditOnClient(
  client: PoolClient,
  db: DbExecutor,
  who: AuditContext,
  change: AuditChange,
): Promise<void> {
  const row = auditRow(who, change);
  if (!row) return;
  const insert = db.insert(auditEvents).values(row).toSQL();
  await client.query(insert.sql, insert.params);
}

/** The fields of `row` that `changes` names: the before side of a partial update. */
export function pick<T extends Fields>(row: T, changes: Fields): Partial<T> {
  return Object.fromEntries(
    Object.keys(changes)
      .filter((k) => k in row)
      .map((k) => [k, row[k]]),
  ) as Partial<T>;
}
