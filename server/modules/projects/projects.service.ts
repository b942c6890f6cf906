import { pick, recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, notFound } from '../../../common/errors.ts';
import { koboToDecimal, koboToNairaNumber } from '../../../common/money.ts';
import {
  LIST_PAGE_MAX,
  LIST_PAGE_SIZE,
  LIST_PAGE_SIZE_MAX,
  paginationOf,
  type ListCursors,
  type Pagination,
  type PaginationQuery,
} from '../../../common/schemas/pagination.ts';
import { DATES_OUT_OF_ORDER, datesInOrder, type Project, type ProjectListQuery, type ProjectStatus } from '../../../common/schemas/projects.ts';
import type { ListSort } from '../../../common/schemas/archive.ts';
import { keyset, type KeysetOrder } from '../../db/keyset.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import { runNamed } from '../../db/named-statement.ts';
import { SESSION_SELECT, type JoinedSessionRead } from '../auth/sessions.service.ts';
import { publishChange } from '../../events/portal-events.ts';
import { lockWritableClient, lockWritableProject } from './project-locks.ts';
import { clientInScope, clientScopeText, projectScope, UNSCOPED_STAFF_ROLES, type ScopeViewer } from './project-scope.ts';
import { IS_CLIENT_ACCOUNT } from '../organisations/client-scope.ts';

/** Who is asking; what they may see is projectScope's to say (project-scope.ts). */
export type Viewer = ScopeViewer;

export interface NewProject {
  name: string;
  code: string;
  description: string;
  startDate: string | null;
  endDate: string | null;
  /** Kobo (decision 294). */
  budget: bigint;
  clientId: string;
}

const UNIQUE_VIOLATION = '23505';

const projectColumns = {
  id: projects.id,
  name: projects.name,
  code: projects.code,
  description: projects.description,
  startDate: projects.startDate,
  endDate: projects.endDate,
  budget: sql<string>`${projects.budgetKobo}::text`,
  status: projects.status,
  createdAt: projects.createdAt,
  archivedAt: projects.archivedAt,
  clientId: projects.clientId,
  clientName: users.name,
};

type ProjectRow = {
  id: string;
  name: string;
  code: string;
  description: string;
  startDate: string | null;
  endDate: string | null;
  budget: string;
  status: ProjectStatus;
  createdAt: Date;
  archivedAt: Date | null;
  clientId: string;
  clientName: string;
};

/** The API shape of a project; the budget is for staff only. */
function toProject(row: ProjectRow, viewer: Viewer): Project {
  return {
    _id: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    startDate: row.startDate,
    endDate: row.endDate,
    ...(viewer.role === 'admin' ? { budget: koboToNairaNumber(row.budget), budgetKobo: row.budget } : {}),
    status: row.status,
    clientId: { _id: row.clientId, name: row.clientName },
    createdAt: row.createdAt.toISOString(),
    archivedAt: row.archivedAt ? new Date(row.archivedAt).toISOString() : null,
  };
}

/** Whether the client exists and the viewer may see it: a project manager only the clients of their projects. */
async function clientExists(app: FastifyInstance, viewer: Viewer, clientId: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, clientId), eq(users.role, 'client'), IS_CLIENT_ACCOUNT, clientInScope(viewer, sql.raw('users.id'))))
    .limit(1);
  return Boolean(row);
}

/**
 * The project if the viewer may see it. Another client's project is "not found", exactly like a
 * missing one, so ids cannot be probed.
 */
export async function findProjectForViewer(app: FastifyInstance, viewer: Viewer, projectId: string): Promise<Project> {
  const [row] = await app.db
    .select(projectColumns)
    .from(projects)
    .innerJoin(users, eq(users.id, projects.clientId))
    .where(and(eq(projects.id, projectId), projectScope(viewer)))
    .limit(1);
  if (!row) throw notFound('Project not found');
  return toProject(row, viewer);
}

// A client's project list is one named statement (decision 151): the client (must exist and be a
// client), its total and the page, planned once per connection. A page past the last still says
// the total; no client, no row.
const CLIENT_PROJECTS_COLUMNS = `p.id, p.name, p.code, p.description, p.start_date::text as "startDate", p.end_date::text as "endDate", p.budget_kobo::text as budget,
    p.status, p.created_at as "createdAt", p.archived_at as "archivedAt", (extract(epoch from p.created_at) * 1000000)::bigint::text as "cursorKey"`;
const CLIENT_PROJECTS = {
  name: 'projects-of-client',
  text: `select u.name as "clientName", (select count(*)::int from projects c where c.client_id = u.id and c.archived_at is null) as total,
    ${CLIENT_PROJECTS_COLUMNS}
    from users u
    left join lateral (
      select * from projects p where p.client_id = u.id and p.archived_at is null order by p.created_at desc, p.id desc limit $2 offset $3
    ) p on true
    where u.id = $1 and u.role = 'client' and u.organisation_id = u.id
    order by p.created_at desc, p.id desc`,
};

/**
 * The same page read with the caller's session in one statement (decision 171; $1 the token's
 * hash, then the client, the page size and the offset). No row: no session. Otherwise the
 * session's columns in every row, and `total` null when there is no such client or the session's
 * user may not see it (a client sees only its own list; owners and admins any client's; a project
 * manager's list is read by the scoped list, decision 277, never here). The session is
 * judged by the access layer and the visibility rule again by listClientProjects, as when the two
 * are read apart; this condition only keeps another client's rows from being read at all.
 */
export const CLIENT_PROJECTS_WITH_SESSION = {
  name: 'projects-of-client-with-session',
  text: `with s as (${SESSION_SELECT})
    select s.*, c.name as "clientName", c.total, ${CLIENT_PROJECTS_COLUMNS}
    from s
    left join lateral (
      select u.id, u.name, (select count(*)::int from projects x where x.client_id = u.id and x.archived_at is null
        and (s."userRole" = 'admin' or ${clientScopeText('x', 's."userId"')})) as total
      from users u
      where u.id = $2 and u.role = 'client' and (s."userStaffRole" in (${UNSCOPED_STAFF_ROLES.map((r) => `'${r}'`).join(', ')}) or s."userOrganisationId" = u.id)
    ) c on true
    left join lateral (
      select * from projects p where p.client_id = c.id and p.archived_at is null
        and (s."userRole" = 'admin' or ${clientScopeText('p', 's."userId"')}) order by p.created_at desc, p.id desc limit $3 offset $4
    ) p on true
    order by p.created_at desc, p.id desc`,
};

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The statement's values for a page of the list: the client, the page size and the offset. */
const pageValues = (clientId: string, page: PaginationQuery) => [clientId, page.pageSize, (page.page - 1) * page.pageSize];

/**
 * GET /api/projects/client/:clientId reads its page with the session (server/plugins/access.ts).
 * The values are taken from the routed request as the route's schemas will read them (a uuid;
 * whole page numbers within their limits, defaults when absent); anything else reads the session
 * alone and leaves the answer to validation and to the route's own read.
 */
export const clientProjectsJoinedRead: JoinedSessionRead = {
  statement: CLIENT_PROJECTS_WITH_SESSION,
  values(request) {
    const clientId = (request.params as { clientId?: unknown }).clientId;
    const query = request.query as { page?: unknown; pageSize?: unknown; after?: unknown; before?: unknown };
    // A page past a cursor is read by the keyset list, not by this statement.
    if (query.after !== undefined || query.before !== undefined) return null;
    const page = query.page === undefined ? 1 : Number(query.page);
    const pageSize = query.pageSize === undefined ? LIST_PAGE_SIZE : Number(query.pageSize);
    if (typeof clientId !== 'string' || !UUID.test(clientId)) return null;
    if (!Number.isInteger(page) || page < 1 || page > LIST_PAGE_MAX) return null;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > LIST_PAGE_SIZE_MAX) return null;
    return pageValues(clientId, { page, pageSize });
  },
};

type ClientProjectRow = Omit<ProjectRow, 'id' | 'clientId' | 'clientName'> & { id: string | null; clientName: string | null; total: number | null; cursorKey: string | null };

const sameValues = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * One page of a client's projects, newest first (a client may ask only for its own). `joined`: the
 * rows the access layer read with the session (request.joinedRead), used when they were read with
 * this page's values; otherwise the page is read here.
 */
export async function listClientProjects(
  app: FastifyInstance,
  viewer: Viewer,
  clientId: string,
  page: ProjectListQuery,
  joined: { values: unknown[]; rows: unknown[] } | null = null,
): Promise<{ projects: Project[]; pagination: Pagination; cursors: ListCursors }> {
  const seesWholeClient = viewer.role === 'admin' ? UNSCOPED_STAFF_ROLES.includes(viewer.staffRole!) : (viewer.organisationId ?? viewer._id) === clientId;
  if (viewer.role !== 'admin' && !seesWholeClient) throw notFound('Client not found');
  const values = pageValues(clientId, page);
  const useJoined = joined && sameValues(joined.values, values);
  // A project manager's part of the client's projects is read with the scope (decision 277); the
  // plain statement knows no member limits either, so a client's page comes from the joined read or the filtered list.
  if (!seesWholeClient || page.status !== undefined || page.sort !== undefined || page.after || page.before || (viewer.role !== 'admin' && !useJoined)) {
    return listClientProjectsFiltered(app, viewer, clientId, page);
  }
  const rows = useJoined ? (joined.rows as ClientProjectRow[]) : (await runNamed<ClientProjectRow>(app.pool, CLIENT_PROJECTS, values)).rows;
  const first = rows[0];
  if (!first || first.total === null) throw notFound('Client not found');
  const read = first.id === null ? [] : rows.map((r) => ({ ...r, id: r.id!, cursorKey: r.cursorKey!, clientId, clientName: r.clientName! }));
  // The same cursors as the keyset list's newest-first order (decision 257), for the page after this one.
  const { edges: cursors } = keyset(PROJECT_ORDERS.date, page).edges(read, first.total);
  return { projects: read.map((r) => toProject(r, viewer)), pagination: paginationOf(page, first.total), cursors };
}

/** The project list's orders (decision 248), each walked by keyset (decision 257). */
const PROJECT_ORDERS: Record<ListSort, KeysetOrder> = {
  name: { name: 'name', key: sql`lower(${projects.name})`, kind: 'text', direction: 'asc', id: projects.id },
  // Last activity is stored and kept by the database (migration 0021, decision 258): an index walk.
  activity: { name: 'activity', key: projects.lastActivityAt, kind: 'time', direction: 'desc', id: projects.id },
  date: { name: 'date', key: projects.createdAt, kind: 'time', direction: 'desc', id: projects.id },
};

/**
 * The filtered and ordered list (decision 248): a status, archived or all; by date, name or last
 * activity; by page number or after or before a cursor (decision 257).
 */
async function listClientProjectsFiltered(
  app: FastifyInstance,
  viewer: Viewer,
  clientId: string,
  query: ProjectListQuery,
): Promise<{ projects: Project[]; pagination: Pagination; cursors: ListCursors }> {
  if (!(await clientExists(app, viewer, clientId))) throw notFound('Client not found');
  const status = query.status ?? 'live';
  const where = and(
    eq(projects.clientId, clientId),
    projectScope(viewer),
    status === 'archived' ? isNotNull(projects.archivedAt) : status === 'all' ? undefined : isNull(projects.archivedAt),
    status !== 'archived' && status !== 'all' && status !== 'live' ? eq(projects.status, status) : undefined,
  );
  const walk = keyset(PROJECT_ORDERS[query.sort ?? 'date'], query);
  const read = await app.db
    .select({ ...projectColumns, cursorKey: walk.cursorKey })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.clientId))
    .where(and(where, walk.where))
    .orderBy(...walk.orderBy)
    .limit(walk.limit)
    .offset(walk.offset);
  const { rows, pagination, cursors } = await walk.page(read, async () => (await app.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(projects).where(where))[0].n);
  return { projects: rows.map((r) => toProject(r, viewer)), pagination, cursors };
}

/** Creates a project for a client (the code is unique regardless of letter case) and tells staff and the client. */
export async function createProject(app: FastifyInstance, viewer: Viewer, input: NewProject, who: AuditContext): Promise<Project> {
  if (!(await clientExists(app, viewer, input.clientId))) throw notFound('Client not found');
  const now = app.clock.now();
  const { budget, ...rest } = input;
  try {
    const id = await app.db.transaction(async (tx) => {
      await lockWritableClient(tx, input.clientId);
      const [row] = await tx
        .insert(projects)
        .values({ ...rest, budgetKobo: budget, originalBudgetKobo: budget, createdAt: now, updatedAt: now })
        .returning({ id: projects.id });
      await publishChange(tx, { type: 'project.created', clientId: input.clientId, projectId: row.id, id: row.id });
      await recordAudit(tx, who, { action: 'project.create', entityId: row.id, projectId: row.id, after: { ...rest, budget: koboToDecimal(budget) } });
      return row.id;
    });
    return await findProjectForViewer(app, viewer, id);
  } catch (err) {
    throw codeClash(err, input.code);
  }
}

/** A clash on the unique code as creation words it (the same words for a correction); any other error as it is. */
function codeClash(err: unknown, code: string | undefined): unknown {
  const isClash = (err as { cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION || (err as { code?: string }).code === UNIQUE_VIOLATION;
  return isClash ? conflict(`A project with the code ${code} already exists`) : err;
}

export type ProjectChanges = Partial<Omit<NewProject, 'clientId'>> & { status?: ProjectStatus };

/**
 * Corrects a project: any of its fields but the client (creation's rules and words). The row is
 * locked while the dates are checked, so the end date never ends up before the start date, even
 * when the PATCH names only one of them or two corrections race. Every viewer hears of it live.
 */
export async function updateProject(app: FastifyInstance, viewer: Viewer, projectId: string, changes: ProjectChanges, who: AuditContext): Promise<Project> {
  const { budget, ...rest } = changes;
  // A budget correction corrects the original contract sum by as much, so that the original sum plus
  // the approved change orders is still the current sum (decision 294).
  const set = {
    ...rest,
    ...(budget !== undefined ? { budgetKobo: budget, originalBudgetKobo: sql`${projects.originalBudgetKobo} + (${budget.toString()}::bigint - ${projects.budgetKobo})` } : {}),
  };
  const audited = { ...rest, ...(budget !== undefined ? { budget: koboToDecimal(budget) } : {}) };
  try {
    const found = await app.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(projects)
        .where(and(eq(projects.id, projectId), projectScope(viewer)))
        .for('update');
      if (!before) return false;
      // An archived project (or one of an archived client) is read-only until restored (issue 22).
      await lockWritableProject(tx, viewer, projectId);
      const dates = { startDate: changes.startDate !== undefined ? changes.startDate : before.startDate, endDate: changes.endDate !== undefined ? changes.endDate : before.endDate };
      if (!datesInOrder(dates)) {
        throw new AppError('VALIDATION_FAILED', `body.endDate: ${DATES_OUT_OF_ORDER}`, [{ field: 'body.endDate', message: DATES_OUT_OF_ORDER }]);
      }
      await tx
        .update(projects)
        .set({ ...set, updatedAt: app.clock.now() })
        .where(eq(projects.id, projectId));
      await publishChange(tx, { type: 'project.updated', clientId: before.clientId, projectId, id: projectId });
      await recordAudit(tx, who, { action: 'project.update', entityId: projectId, projectId, before: { ...pick(before, rest), ...(budget !== undefined ? { budget: koboToDecimal(before.budgetKobo) } : {}) }, after: audited });
      return true;
    });
    if (!found) throw notFound('Project not found');
  } catch (err) {
    throw codeClash(err, changes.code);
  }
  return findProjectForViewer(app, viewer, projectId);
}

/** Saves a project's new status and tells every viewer of the project. */
export async function updateProjectStatus(
  app: FastifyInstance,
  viewer: Viewer,
  projectId: string,
  status: ProjectStatus,
  who: AuditContext,
): Promise<Project> {
  const row = await app.db.transaction(async (tx) => {
    const old = await lockWritableProject(tx, viewer, projectId);
    const [updated] = await tx
      .update(projects)
      .set({ status, updatedAt: app.clock.now() })
      .where(eq(projects.id, projectId))
      .returning({ id: projects.id, clientId: projects.clientId });
    if (updated) await publishChange(tx, { type: 'project.status', clientId: updated.clientId, projectId: updated.id, id: updated.id });
    if (updated) await recordAudit(tx, who, { action: 'project.status', entityId: projectId, projectId, before: { status: old.status }, after: { status } });
    return updated;
  });
  if (!row) throw notFound('Project not found');
  return findProjectForViewer(app, viewer, row.id);
}
