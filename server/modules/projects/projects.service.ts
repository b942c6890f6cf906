import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../../common/errors.ts';
import { paginationOf, type Pagination, type PaginationQuery } from '../../../common/schemas/pagination.ts';
import type { Project, ProjectStatus } from '../../../common/schemas/projects.ts';
import { projects } from '../../db/schema/projects.ts';
import { users, type UserRole } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';

/** Who is asking: staff see everything, a client only its own projects. */
export interface Viewer {
  _id: string;
  role: UserRole;
}

export interface NewProject {
  name: string;
  code: string;
  description: string;
  startDate: string | null;
  endDate: string | null;
  budget: number;
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
  budget: projects.budget,
  status: projects.status,
  createdAt: projects.createdAt,
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
    ...(viewer.role === 'admin' ? { budget: Number(row.budget) } : {}),
    status: row.status,
    clientId: { _id: row.clientId, name: row.clientName },
    createdAt: row.createdAt.toISOString(),
  };
}

/** What a viewer may see of projects: staff all, a client only its own. */
const visibleTo = (viewer: Viewer) => (viewer.role === 'admin' ? undefined : eq(projects.clientId, viewer._id));

async function clientExists(app: FastifyInstance, clientId: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, clientId), eq(users.role, 'client')))
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
    .where(and(eq(projects.id, projectId), visibleTo(viewer)))
    .limit(1);
  if (!row) throw notFound('Project not found');
  return toProject(row, viewer);
}

/** One page of a client's projects, newest first (a client may ask only for its own). */
export async function listClientProjects(
  app: FastifyInstance,
  viewer: Viewer,
  clientId: string,
  page: PaginationQuery,
): Promise<{ projects: Project[]; pagination: Pagination }> {
  if (viewer.role !== 'admin' && viewer._id !== clientId) throw notFound('Client not found');
  if (viewer.role === 'admin' && !(await clientExists(app, clientId))) throw notFound('Client not found');
  const rows = await app.db
    .select({ ...projectColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.clientId))
    .where(eq(projects.clientId, clientId))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  // Past the last page the window count is not there; one count query answers the total then.
  const total =
    rows[0]?.total ??
    (page.page > 1
      ? (await app.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(projects).where(eq(projects.clientId, clientId)))[0].n
      : 0);
  return { projects: rows.map((r) => toProject(r, viewer)), pagination: paginationOf(page, total) };
}

/** Creates a project for a client (the code is unique regardless of letter case) and tells staff and the client. */
export async function createProject(app: FastifyInstance, viewer: Viewer, input: NewProject): Promise<Project> {
  if (!(await clientExists(app, input.clientId))) throw notFound('Client not found');
  const now = app.clock.now();
  try {
    const id = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(projects)
        .values({ ...input, budget: input.budget.toFixed(2), createdAt: now, updatedAt: now })
        .returning({ id: projects.id });
      await publishChange(tx, { type: 'project.created', clientId: input.clientId, projectId: row.id, id: row.id });
      return row.id;
    });
    return await findProjectForViewer(app, viewer, id);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION || (err as { code?: string }).code === UNIQUE_VIOLATION) {
      throw conflict(`A project with the code ${input.code} already exists`);
    }
    throw err;
  }
}

/** Saves a project's new status and tells every viewer of the project. */
export async function updateProjectStatus(
  app: FastifyInstance,
  viewer: Viewer,
  projectId: string,
  status: ProjectStatus,
): Promise<Project> {
  const row = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(projects)
      .set({ status, updatedAt: app.clock.now() })
      .where(eq(projects.id, projectId))
      .returning({ id: projects.id, clientId: projects.clientId });
    if (updated) await publishChange(tx, { type: 'project.status', clientId: updated.clientId, projectId: updated.id, id: updated.id });
    return updated;
  });
  if (!row) throw notFound('Project not found');
  return findProjectForViewer(app, viewer, row.id);
}
