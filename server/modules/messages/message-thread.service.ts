import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import type { Message } from '../../../common/schemas/messages.ts';
import { runNamed } from '../../db/named-statement.ts';
import { readersSql, toMessage, type MessageRow } from './message-rows.ts';
import { organisationOf, type Viewer } from './messages.service.ts';
import { projectScopeText } from '../projects/project-scope.ts';
import { publishedCompany } from '../site-content/published-company.ts';

/** A position in a thread (see threadCursor in common/schemas/messages.ts). */
export interface ThreadCursor {
  createdAt: Date;
  id: string;
}

// Threads are ordered by creation time, stored to the millisecond (what the API shows and cursors
// carry), then by id, so equal times neither skip nor repeat a message between pages. The index
// messages_project_created_id_idx (project_id, created_at, id) serves this order and the cursor
// as they are: a page costs the same at 100 messages and at 20,000 (decision 150).
//
// One statement answers a page: the project (visible to the viewer, else no row at all), the
// newest `limit` messages before the cursor with their people, and each message's files as one
// small JSON array (the per-message index on message_files). Named statements: PostgreSQL plans
// each once per connection (decision 151).
const threadPageSql = (withCursor: boolean, scope: string) => `
select m.id, m.subject, m.text, m.is_read, m.read_at, m.created_at, m.edited_at, m.deleted_at, m.sender_id, s.name as sender_name, s.role as sender_role,
  m.receiver_id, r.name as receiver_name,
  (select coalesce(json_agg(json_build_array(f.id, f.name, f.mime_type, f.kind, f.size) order by f.position), '[]'::json)
     from message_files f where f.message_id = m.id) as files,
  ${readersSql('m.id')} as readers
from projects p
left join lateral (
  select * from messages m
  where m.project_id = p.id${withCursor ? ' and (m.created_at, m.id) < ($3, $4)' : ''}
  order by m.created_at desc, m.id desc
  limit $2
) m on true
left join users s on s.id = m.sender_id
left join users r on r.id = m.receiver_id
where p.id = $1 and ${scope}
order by m.created_at desc, m.id desc`;

/**
 * The page's statement for this viewer: the project limited by projectScope (decision 277), the
 * viewer's id after the page's own values when the scope names it. One statement per kind of scope.
 */
export function threadPageStatement(viewer: Viewer, withCursor: boolean): { name: string; text: string; usesViewer: boolean } {
  const scope = projectScopeText(viewer, 'p', withCursor ? 5 : 3);
  return { name: `thread-page-${scope.key}${withCursor ? '-before' : ''}`, text: threadPageSql(withCursor, scope.text), usesViewer: scope.usesViewer };
}

// What waits for the viewer, older than a position: staff count what clients sent, a client person
// what staff sent to their client that they have not read themselves (decision 281).
const OLDER_UNREAD_STATEMENTS = {
  staff: {
    name: 'thread-older-unread-staff',
    text: `select count(*)::int as n from messages where project_id = $1 and receiver_id is null and not is_read and (created_at, id) < ($2, $3)`,
  },
  client: {
    name: 'thread-older-unread-client',
    text: `select count(*)::int as n from messages m where m.project_id = $1 and m.receiver_id = $4 and m.deleted_at is null and (m.created_at, m.id) < ($2, $3)
      and not exists (select 1 from message_reads r where r.message_id = m.id and r.user_id = $5)`,
  },
};

/** A row of a thread page: a project without messages gives one row whose id is null. */
type ThreadPageRow = Omit<MessageRow, 'id'> & { id: string | null };

/**
 * One page of a project's thread, oldest first: the newest `limit` messages, or those just before
 * the `before` position, with names and attachments. `hasMore` says whether older ones exist.
 */
export async function listProjectMessages(
  app: FastifyInstance,
  viewer: Viewer,
  projectId: string,
  page: { before?: ThreadCursor; limit: number },
): Promise<{ messages: Message[]; hasMore: boolean; olderUnread: number }> {
  const { before, limit } = page;
  const { usesViewer, ...statement } = threadPageStatement(viewer, before !== undefined);
  // One more than asked tells whether an older page exists.
  const values: unknown[] = [projectId, limit + 1];
  if (before) values.push(before.createdAt, before.id);
  if (usesViewer) values.push(viewer._id);
  const { rows } = await runNamed<ThreadPageRow>(app.pool, statement, values);
  // No row: no such project, or one outside the viewer's scope (the same answer, so ids cannot be probed).
  if (rows.length === 0) throw notFound('Project not found');
  const found = rows[0].id === null ? [] : (rows as MessageRow[]);
  const hasMore = found.length > limit;
  const shown: Message[] = new Array(Math.min(found.length, limit));
  const company = publishedCompany(app);
  for (let i = 0; i < shown.length; i++) shown[shown.length - 1 - i] = toMessage(company, found[i], projectId, viewer);
  const oldest = shown.length ? found[shown.length - 1] : undefined;
  return { messages: shown, hasMore, olderUnread: hasMore && oldest ? await countUnreadBefore(app, viewer, projectId, oldest) : 0 };
}

/** Unread messages for the viewer in a thread, older than the given position. */
async function countUnreadBefore(app: FastifyInstance, viewer: Viewer, projectId: string, oldest: { id: string; created_at: Date }): Promise<number> {
  const forClient = viewer.role !== 'admin';
  const values: unknown[] = [projectId, oldest.created_at, oldest.id];
  if (forClient) values.push(organisationOf(viewer), viewer._id);
  const { rows } = await runNamed<{ n: number }>(app.pool, forClient ? OLDER_UNREAD_STATEMENTS.client : OLDER_UNREAD_STATEMENTS.staff, values);
  return rows[0].n;
}
