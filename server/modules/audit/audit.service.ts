import { and, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  AUDIT_PAGE_SIZE,
  describeChange,
  NAMED_ID_KEYS,
  type AuditEvent,
  type AuditFilter,
  type AuditFilterOptions,
} from '../../../common/schemas/audit.ts';
import { COMPANY_TIME_ZONE, formatDateTimeSeconds } from '../../../common/dates.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';

// A day of the filter is a calendar day in Lagos: from its midnight there to the next one.
const lagosMidnight = (day: string, plusDays: number) =>
  sql`((${day}::date + ${plusDays}::int)::timestamp at time zone ${COMPANY_TIME_ZONE})`;

function filterWhere(filter: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.actorId) where.push(eq(auditEvents.actorId, filter.actorId));
  if (filter.projectId) where.push(eq(auditEvents.projectId, filter.projectId));
  if (filter.from) where.push(sql`${auditEvents.at} >= ${lagosMidnight(filter.from, 0)}`);
  if (filter.to) where.push(sql`${auditEvents.at} < ${lagosMidnight(filter.to, 1)}`);
  return where;
}

const toEvent = (row: typeof auditEvents.$inferSelect): AuditEvent => ({ ...row, at: row.at.toISOString() });
// The cursor keeps the microseconds PostgreSQL stores, so no row is skipped or repeated at a page edge.
const atText = sql<string>`to_char(${auditEvents.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** One page, newest first, after the (at, id) of `cursor` when given. */
export async function listAuditEvents(
  app: FastifyInstance,
  query: AuditFilter & { cursor?: string },
  pageSize = AUDIT_PAGE_SIZE,
): Promise<{ events: AuditEvent[]; names: Record<string, string>; nextCursor: string | null }> {
  const where = filterWhere(query);
  if (query.cursor) {
    const [at, id] = query.cursor.split('_');
    where.push(sql`(${auditEvents.at}, ${auditEvents.id}) < (${at}::timestamptz, ${id}::uuid)`);
  }
  const rows = await app.db
    .select({ row: auditEvents, atText })
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  const events = page.map((r) => toEvent(r.row));
  return {
    events,
    names: await namesOf(app, events),
    nextCursor: rows.length > pageSize && last ? `${last.atText}_${last.row.id}` : null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The current names of the clients and projects the events point at (one read each for the page). */
async function namesOf(app: FastifyInstance, events: AuditEvent[]): Promise<Record<string, string>> {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.projectId) ids.add(e.projectId);
    for (const values of [e.before, e.after])
      for (const key of NAMED_ID_KEYS) if (typeof values?.[key] === 'string') ids.add(values[key]);
  }
  const wanted = [...ids].filter((id) => UUID.test(id));
  if (wanted.length === 0) return {};
  const [named, people] = await Promise.all([
    app.db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, wanted)),
    app.db.select({ id: users.id, name: users.name }).from(users).where(and(inArray(users.id, wanted), eq(users.role, 'client'))),
  ]);
  return Object.fromEntries([...named, ...people].map((r) => [r.id, r.name]));
}

/** Everyone who acted and every project named in the log, for the filters. */
export async function auditFilterOptions(app: FastifyInstance): Promise<Omit<AuditFilterOptions, 'success'>> {
  const people = await app.db
    .selectDistinctOn([auditEvents.actorId], { id: auditEvents.actorId, label: auditEvents.actorLabel })
    .from(auditEvents)
    .where(isNotNull(auditEvents.actorId))
    .orderBy(auditEvents.actorId, desc(auditEvents.at));
  const named = await app.db.select({ id: projects.id, name: projects.name }).from(projects).orderBy(projects.name);
  return {
    people: people.map((p) => ({ id: p.id!, label: p.label })).sort((a, b) => a.label.localeCompare(b.label)),
    projects: named,
  };
}

const AUDIT_CSV_HEADER = [
  'Time (Lagos)',
  'Who',
  'Address',
  'Action',
  'Kind',
  'Id',
  'Project id',
  'Project',
  'What changed',
];

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; a cell a spreadsheet would run as
 * a formula (starting with = + - @, or a tab or carriage return) gets a leading apostrophe.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
const CSV_BATCH = 500;
const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The filtered log as CSV lines, read page by page so a long log never sits in memory whole. */
export async function* auditCsv(app: FastifyInstance, filter: AuditFilter): AsyncGenerator<string> {
  yield csvLine(AUDIT_CSV_HEADER);
  let cursor: string | undefined;
  do {
    const page = await listAuditEvents(app, { ...filter, cursor }, CSV_BATCH);
    for (const e of page.events) {
      yield csvLine([
        formatDateTimeSeconds(e.at),
        e.actorLabel,
        e.address ?? '',
        e.action,
        e.entityKind,
        e.entityId,
        e.projectId ?? '',
        (e.projectId && page.names[e.projectId]) ?? '',
        describeChange(e.before, e.after, page.names),
      ]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
