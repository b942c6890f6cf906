import type { PublishedCompany } from '../site-content/published-company.ts';
import type { AttachmentKind, Message } from '../../../common/schemas/messages.ts';
import type { UserRole } from '../../db/schema/users.ts';
import { toAttachment } from '../files/files.service.ts';

/** A message's file as the statements return it: id, name, MIME type, kind, size. */
export type AttachmentTuple = [string, string, string, AttachmentKind, number];
/** A person of the client who read a staff message (message_reads): id, name, when (ISO). */
export type ReaderTuple = [string, string, string];

/**
 * The statements' column of a message's readers (message_reads), first reader first: one lookup by
 * the table's key per message. `messageId` is the SQL of the message's id.
 */
export const readersSql = (messageId: string) => `(select coalesce(json_agg(json_build_array(u.id, u.name, to_char(r.read_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by r.read_at, u.id), '[]'::json)
  from message_reads r join users u on u.id = r.user_id where r.message_id = ${messageId})`;

/** Who reads the answer: staff see the shared flag, a client person their own read (decision 281). */
export interface MessageReader {
  _id: string;
  role: UserRole;
}

/**
 * A message as every read of it returns it (the thread page, the send, a single message): the
 * column names of the SQL statements, with the people's names and the files in their order.
 */
export interface MessageRow {
  id: string;
  subject: string;
  text: string;
  is_read: boolean;
  read_at: Date | null;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
  sender_id: string;
  sender_name: string;
  sender_role: UserRole;
  receiver_id: string | null;
  receiver_name: string | null;
  files: AttachmentTuple[];
  readers: ReaderTuple[];
}

/**
 * The one mapping of a stored message to what the API answers. A staff message is read, for a
 * client person, when they have read it themselves; for staff, when anyone of the client has.
 */
export function toMessage(company: PublishedCompany, r: MessageRow, projectId: string, viewer: MessageReader): Message {
  const fromStaff = r.sender_role === 'admin';
  const perPerson = fromStaff && viewer.role !== 'admin';
  const own = perPerson ? r.readers.find(([id]) => id === viewer._id) : undefined;
  return {
    _id: r.id,
    subject: r.subject,
    text: r.text,
    senderId: { _id: r.sender_id, name: r.sender_name },
    // The person who wrote it, with their side: staff messages are the company's (decision 281).
    sender: { _id: r.sender_id, name: r.sender_name, role: r.sender_role, organisation: fromStaff ? company.shortName : null },
    // A client writes to the company as a whole: any admin may read and answer.
    receiverId: r.receiver_id ? { _id: r.receiver_id, name: r.receiver_name ?? '' } : { _id: null, name: company.name },
    projectId,
    fromStaff,
    isRead: perPerson ? Boolean(own) : r.is_read,
    readAt: perPerson ? (own?.[2] ?? null) : r.read_at ? r.read_at.toISOString() : null,
    readBy: r.readers.map(([id, name, readAt]) => ({ _id: id, name, readAt })),
    createdAt: r.created_at.toISOString(),
    editedAt: r.edited_at ? r.edited_at.toISOString() : null,
    deletedAt: r.deleted_at ? r.deleted_at.toISOString() : null,
    attachments: r.files.map(([id, name, mimeType, kind, size]) => toAttachment({ id, name, mimeType, kind, size })),
  };
}
