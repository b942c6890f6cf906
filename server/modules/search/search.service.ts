import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../../common/paths.ts';
import { roleGrants, type Permission } from '../../../common/permissions.ts';
import { clientInScope, projectScope, projectScopeOn, type ScopeViewer } from '../projects/project-scope.ts';
import {
  ADMIN_SEARCH_KINDS,
  CLIENT_SEARCH_KINDS,
  SEARCH_KIND_LABELS,
  type SearchGroup,
  type SearchHit,
  type SearchKind,
  type SearchQuery,
} from '../../../common/schemas/search.ts';

/*
 * Search (decision 250). The term only ever travels as a bound parameter: full text goes through
 * websearch_to_tsquery (which accepts any input and never fails on syntax), names and codes through
 * ILIKE with the wildcards of the term escaped. Each kind is one query of at most limit + 1 rows;
 * the words around a match (ts_headline) are computed for those rows only, outside the LIMIT.
 */

interface Row {
  id: string;
  title: string;
  detail: string | null;
  client_id?: string;
  project_id?: string;
}

/** `%term%` for ILIKE, with the term's own % _ and \ matching themselves. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const HEADLINE_OPTIONS = 'MaxWords=18, MinWords=6, ShortWord=2, MaxFragments=1, StartSel="", StopSel=""';

/** Who searches; what they may find is projectScope's to say (decision 277). */
type Viewer = ScopeViewer;

const projectHref = (viewer: Viewer, clientId: string, projectId: string, hash = '') =>
  viewer.role === 'admin'
    ? `${PATHS.adminDashboard}?client=${encodeURIComponent(clientId)}&project=${encodeURIComponent(projectId)}${hash}`
    : `${PATHS.clientDashboard}?project=${encodeURIComponent(projectId)}${hash}`;

/** Restricts a projects alias `p` to the viewer's scope. */
const ownedBy = (viewer: Viewer): SQL => sql`and ${projectScopeOn(viewer, 'p')}`;

async function rows(app: FastifyInstance, query: SQL): Promise<Row[]> {
  return (await app.db.execute<Row & Record<string, unknown>>(query)).rows;
}

function searchClients(app: FastifyInstance, viewer: Viewer, term: string, take: number) {
  const like = containing(term);
  return rows(
    app,
    sql`select id, name as title, email || coalesce(' · ' || username, '') as detail
      from users
      where role = 'client' and organisation_id = id and (name ilike ${like} or email ilike ${like} or username ilike ${like}) and ${clientInScope(viewer, sql.raw('users.id')) ?? sql`true`}
      order by lower(name), id
      limit ${take}`,
  );
}

function searchProjects(app: FastifyInstance, viewer: Viewer, term: string, take: number) {
  const like = containing(term);
  return rows(
    app,
    sql`select p.id, p.name as title, p.code || ' · ' || u.name as detail, p.client_id, p.id as project_id
      from projects p join users u on u.id = p.client_id
      where (p.name ilike ${like} or p.code ilike ${like}) ${ownedBy(viewer)}
      order by (lower(p.code) = lower(${term})) desc, lower(p.name), p.id
      limit ${take}`,
  );
}

/**
 * The viewer's rows of a table with a project_id, as a condition on alias `x`: all for those who see
 * every project; otherwise those of the projects in scope, looked up first so the scan stays inside
 * their few threads.
 */
const inOwnProjects = (viewer: Viewer): SQL =>
  projectScope(viewer) === undefined ? sql`` : sql`and x.project_id = any(array(select p.id from projects p where ${projectScopeOn(viewer, 'p')}))`;

function searchReports(app: FastifyInstance, viewer: Viewer, term: string, take: number) {
  // The matches are found and limited on the reports alone; the project is joined to those few rows.
  return rows(
    app,
    sql`select hit.id, 'Report of ' || to_char(hit.date, 'DD Mon YYYY') || ' · ' || hit.project as title,
        ts_headline('english', hit.progress || ' ' || hit.tasks || ' ' || hit.challenges || ' ' || hit.next_steps || ' ' || hit.conclusion,
          websearch_to_tsquery('english', ${term}), ${HEADLINE_OPTIONS}) as detail,
        p.client_id, hit.project_id
      from (
        select x.id, x.date, x.project, x.progress, x.tasks, x.challenges, x.next_steps, x.conclusion, x.project_id, x.created_at
        from progress_reports x
        where x.search_vector @@ websearch_to_tsquery('english', ${term}) ${inOwnProjects(viewer)}
        order by x.date desc, x.created_at desc, x.id
        limit ${take}
      ) hit
      join projects p on p.id = hit.project_id
      order by hit.date desc, hit.created_at desc, hit.id`,
  );
}

/** How many matching messages are looked up by the text index alone before ordering them. */
const MESSAGE_PROBE = 1000;

async function searchMessages(app: FastifyInstance, viewer: Viewer, term: string, take: number) {
  const match = sql`x.search_vector @@ websearch_to_tsquery('english', ${term}) ${inOwnProjects(viewer)}`;
  // Newest first, in two steps, because no single plan serves both ends: the GIN index finds the few
  // matches of a rare word at once, but walking messages_created_idx for one would read every message
  // (2 s at a million); a common word is the reverse. Fewer than MESSAGE_PROBE matches: sort those;
  // more: walk newest first, which stops after a few rows since the word is everywhere.
  const probe = await rows(app, sql`select x.id from messages x where ${match} limit ${MESSAGE_PROBE}`);
  if (probe.length === 0) return [];
  const where = probe.length < MESSAGE_PROBE ? sql`x.id = any(${`{${probe.map((r) => r.id).join(',')}}`}::uuid[])` : match;
  return rows(
    app,
    sql`select hit.id, coalesce(nullif(hit.subject, ''), 'Message') || ' · ' || p.name as title,
        ts_headline('english', hit.text, websearch_to_tsquery('english', ${term}), ${HEADLINE_OPTIONS}) as detail,
        p.client_id, hit.project_id
      from (
        select x.id, x.subject, x.text, x.created_at, x.project_id
        from messages x
        where ${where}
        order by x.created_at desc, x.id desc
        limit ${take}
      ) hit
      join projects p on p.id = hit.project_id
      order by hit.created_at desc, hit.id desc`,
  );
}

function searchVendorApplications(app: FastifyInstance, term: string, take: number) {
  const like = containing(term);
  return rows(
    app,
    sql`select id, company_name as title, reference || ' · ' || contact_person_name || ' · ' || status as detail
      from vendor_applications
      where search_vector @@ websearch_to_tsquery('english', ${term})
         or company_name ilike ${like} or reference ilike ${like} or company_email ilike ${like} or contact_person_name ilike ${like}
      order by created_at desc, id
      limit ${take}`,
  );
}

function searchContactMessages(app: FastifyInstance, term: string, take: number) {
  const like = containing(term);
  return rows(
    app,
    sql`select hit.id, hit.name || ' · ' || hit.email as title,
        ts_headline('english', hit.message, websearch_to_tsquery('english', ${term}), ${HEADLINE_OPTIONS}) as detail
      from (
        select id, name, email, message, created_at from contact_messages
        where search_vector @@ websearch_to_tsquery('english', ${term}) or name ilike ${like} or email ilike ${like} or company ilike ${like}
        order by created_at desc, id
        limit ${take}
      ) hit
      order by hit.created_at desc, hit.id`,
  );
}

function hrefOf(kind: SearchKind, viewer: Viewer, row: Row): string {
  switch (kind) {
    case 'clients':
      return `${PATHS.adminDashboard}?client=${encodeURIComponent(row.id)}`;
    case 'projects':
      return projectHref(viewer, row.client_id!, row.project_id!);
    case 'reports':
      return projectHref(viewer, row.client_id!, row.project_id!, `#report-${row.id}`);
    case 'messages':
      return projectHref(viewer, row.client_id!, row.project_id!, `#message-${row.id}`);
    case 'vendorApplications':
      return PATHS.adminVendorApplication(row.id);
    case 'contactMessages':
      return `${PATHS.adminContactMessages}#message-${row.id}`;
  }
}

function run(app: FastifyInstance, kind: SearchKind, viewer: Viewer, term: string, take: number): Promise<Row[]> {
  switch (kind) {
    case 'clients':
      return searchClients(app, viewer, term, take);
    case 'projects':
      return searchProjects(app, viewer, term, take);
    case 'reports':
      return searchReports(app, viewer, term, take);
    case 'messages':
      return searchMessages(app, viewer, term, take);
    case 'vendorApplications':
      return searchVendorApplications(app, term, take);
    case 'contactMessages':
      return searchContactMessages(app, term, take);
  }
}

/** What a staff role needs to find each kind (a project manager finds no vendor applications). */
const KIND_PERMISSION: Record<SearchKind, Permission> = {
  clients: 'clients.read',
  projects: 'projects.read',
  reports: 'projects.read',
  messages: 'projects.read',
  vendorApplications: 'submissions.read',
  contactMessages: 'submissions.read',
};

/** Every kind the viewer may search, grouped; kinds with no hit are left out. */
export async function search(app: FastifyInstance, viewer: Viewer, query: SearchQuery): Promise<SearchGroup[]> {
  const kinds: readonly SearchKind[] = viewer.role === 'admin' ? ADMIN_SEARCH_KINDS.filter((kind) => roleGrants(viewer.staffRole, KIND_PERMISSION[kind])) : CLIENT_SEARCH_KINDS;
  // limit + 1 rows tell whether there are more without counting every match.
  const found = await Promise.all(kinds.map((kind) => run(app, kind, viewer, query.q, query.limit + 1)));
  return kinds
    .map((kind, i) => ({
      kind,
      label: SEARCH_KIND_LABELS[kind],
      hits: found[i].slice(0, query.limit).map((row): SearchHit => ({ id: row.id, title: row.title, detail: row.detail ?? '', href: hrefOf(kind, viewer, row) })),
      more: found[i].length > query.limit,
    }))
    .filter((group) => group.hits.length > 0);
}
