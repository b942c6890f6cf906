import { company } from '../../../common/content/company.ts';
import type { AttachmentKind, Message } from '../../../common/schemas/messages.ts';
import type { UserRole } from '../../db/schema/users.ts';
import { toAttachment } from '../files/files.service.ts';

/** A message's file as the statements return it: id, name, MIME type, kind, size. */
export type AttachmentTuple = [string, string, string, AttachmentKind, number];

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
}

/** The one mapping of a stored message to what the API answers. */
export function toMessage(r: MessageRow, projectId: string): Message {
  return {
    _id: r.id,
    subject: r.subject,
    text: r.text,
    senderId: { _id: r.sender_id, name: r.sender_name },
    // A client writes to the company as a whole: any admin may read and answer.
    receiverId: r.receiver_id ? { _id: r.receiver_id, name: r.receiver_name ?? '' } : { _id: null, name: company.name },
    projectId,
    fromStaff: r.sender_role === 'admin',
    isRead: r.is_read,
    readAt: r.read_at ? r.read_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    editedAt: r.edited_at ? r.edited_at.toISOString() : null,
    deletedAt: r.deleted_at ? r.deleted_at.toISOString() : null,
    attachments: r.files.map(([id, name, mimeType, kind, size]) => toAttachment({ id, name, mimeType, kind, size })),
  };
}
