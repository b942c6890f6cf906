import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import type { Message } from '../../../common/schemas/messages.ts';
import { runNamed } from '../../db/named-statement.ts';
import { toMessage, type MessageRow } from './message-rows.ts';
import type { Viewer } from './messages.service.ts';
import { clientProjectConditionText } from '../organisations/client-scope.ts';

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
const threadPageSql = (withCursor: boolean, forClient: boolean) => `
select m.id, m.subject, m.text, m.is_read, m.read_at, m.created_at, m.edited_at, m.deleted_at, m.sender_id, s.name as sender_name, s.role as sender_role,
  m.receiver_id, r.name as receiver_name,
  (select coalesce(json_agg(json_build_array(f.id, f.name, f.mime_type, f.kind, f.size) order by f.position), '[]'::json)
     from message_files f where f.message_id = m.id) as files
from projects p
left join lateral (
  select * from messages m
  where m.project_id = p.id${withCursor ? ' and (m.created_at, m.id) < ($3, $4)' : ''}
  order by m.created_at desc, m.id desc
  limit $2
) m on true
left join users s on s.id = m.sender_id
left join users r on r.id = m.receiver_id
where p.id = $1${forClient ? ` and ${clientProjectConditionText('p', `$${withCursor ? 5 : 3}`)}` : ''}
order by m.created_at desc, m.id desc`;

export const THREAD_PAGE_STATEMENTS = {
  staff: { text: threadPageSql(false, false), name: 'thread-page-staff' },
  staffBefore: { text: threadPageSql(true, false), name: 'thread-page-staff-before' },
  client: { text: threadPageSql(false, true), name: 'thread-page-client' },
  clientBefore: { text: threadPageSql(true, true), name: 'thread-page-client-before' },
};

// What waits for the viewer, older than a position: staff count what clients sent, a client what staff sent to it.
const OLDER_UNREAD_STATEMENTS = {
  staff: {
    name: 'thread-older-unread-staff',
    text: `select count(*)::int as n from messages where project_id = $1 and receiver_id is null and not is_read and (created_at, id) < ($2, $3)`,
  },
  client: {
    name: 'thread-older-unread-client',
    text: `select count(*)::int as n from messages m join projects p on p.id = m.project_id
      where m.project_id = $1 and m.receiver_id = p.client_id and not m.is_read and (m.created_at, m.id) < ($2, $3) and ${clientProjectConditionText('p', '$4')}`,
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
  const forClient = viewer.role !== 'admin';
  const statement = forClient
    ? before
      ? THREAD_PAGE_STATEMENTS.clientBefore
      : THREAD_PAGE_STATEMENTS.client
    : before
      ? THREAD_PAGE_STATEMENTS.staffBefore
      : THREAD_PAGE_STATEMENTS.staff;
  // One more than asked tells whether an older page exists.
  const values: unknown[] = [projectId, limit + 1];
  if (before) values.push(before.createdAt, before.id);
  if (forClient) values.push(viewer._id);
  const { rows } = await runNamed<ThreadPageRow>(app.pool, statement, values);
  // No row: no such project, or another client's (the same answer, so ids cannot be probed).
  if (rows.length === 0) throw notFound('Project not found');
  const found = rows[0].id === null ? [] : (rows as MessageRow[]);
  const hasMore = found.length > limit;
  const shown: Message[] = new Array(Math.min(found.length, limit));
  for (let i = 0; i < shown.length; i++) shown[shown.length - 1 - i] = toMessage(found[i], projectId);
  const oldest = shown.length ? found[shown.length - 1] : undefined;
  return { messages: shown, hasMore, olderUnread: hasMore && oldest ? await countUnreadBefore(app, viewer, projectId, oldest) : 0 };
}

/** Unread messages for the viewer in a thread, older than the given position. */
async function countUnreadBefore(app: FastifyInstance, viewer: Viewer, projectId: string, oldest: { id: string; created_at: Date }): Promise<number> {
  const forClient = viewer.role !== 'admin';
  const values: unknown[] = [projectId, oldest.created_at, oldest.id];
  if (forClient) values.push(viewer._id);
  const { rows } = await runNamed<{ n: number }>(app.pool, forClient ? OLDER_UNREAD_STATEMENTS.client : OLDER_UNREAD_STATEMENTS.staff, values);
  return rows[0].n;
}
