import '../zod-setup.ts';
import { z } from 'zod';
import { multilineString } from './line-endings.ts';
import { refineSingleLine } from './text.ts';
import { okResponse } from './ok-response.ts';

// ---------------------------------------------------------------------------------------------
// Attachments (specification sections 3, 5 and 9)

/** The specification's limit per attachment: 50 MB. */
export const MESSAGE_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
/** How many attachments one message may carry. */
export const MESSAGE_ATTACHMENTS_MAX = 20;
/** Base64 grows by 4/3; the JSON upload body must fit a 50 MB file plus its fields. */
export const MESSAGE_UPLOAD_JSON_BODY_LIMIT_BYTES = Math.ceil(MESSAGE_ATTACHMENT_MAX_BYTES / 3) * 4 + 1024 * 1024;

export const ATTACHMENT_KINDS = ['image', 'video', 'document'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export interface AttachmentType {
  /** The type the file is stored and served with. */
  mime: string;
  kind: AttachmentKind;
  /** Other names browsers and systems give the same type. */
  aliases: readonly string[];
  /** File name endings the picker offers for it. */
  extensions: readonly string[];
}

/**
 * The attachment types the specification allows (jpeg, png, webp, gif, mp4, quicktime, avi, pdf,
 * doc, docx) plus those the picker also offers (xls, xlsx, ppt, pptx, txt). The server checks the
 * bytes against this list; the browser checks the declared type for the toasts.
 */
export const ATTACHMENT_TYPES: readonly AttachmentType[] = [
  { mime: 'image/jpeg', kind: 'image', aliases: ['image/jpg', 'image/pjpeg'], extensions: ['.jpg', '.jpeg'] },
  { mime: 'image/png', kind: 'image', aliases: [], extensions: ['.png'] },
  { mime: 'image/webp', kind: 'image', aliases: [], extensions: ['.webp'] },
  { mime: 'image/gif', kind: 'image', aliases: [], extensions: ['.gif'] },
  { mime: 'video/mp4', kind: 'video', aliases: ['video/x-m4v'], extensions: ['.mp4', '.m4v'] },
  { mime: 'video/quicktime', kind: 'video', aliases: [], extensions: ['.mov', '.qt'] },
  { mime: 'video/x-msvideo', kind: 'video', aliases: ['video/avi', 'video/msvideo', 'video/vnd.avi'], extensions: ['.avi'] },
  { mime: 'application/pdf', kind: 'document', aliases: [], extensions: ['.pdf'] },
  { mime: 'application/msword', kind: 'document', aliases: [], extensions: ['.doc'] },
  {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    kind: 'document',
    aliases: [],
    extensions: ['.docx'],
  },
  { mime: 'application/vnd.ms-excel', kind: 'document', aliases: [], extensions: ['.xls'] },
  {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    kind: 'document',
    aliases: [],
    extensions: ['.xlsx'],
  },
  { mime: 'application/vnd.ms-powerpoint', kind: 'document', aliases: [], extensions: ['.ppt'] },
  {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    kind: 'document',
    aliases: [],
    extensions: ['.pptx'],
  },
  { mime: 'text/plain', kind: 'document', aliases: [], extensions: ['.txt'] },
];

/** The allowed type a declared MIME type names, if any. */
export function attachmentTypeOf(mime: string | undefined | null): AttachmentType | undefined {
  const m = (mime ?? '').split(';')[0].trim().toLowerCase();
  if (!m) return undefined;
  return ATTACHMENT_TYPES.find((t) => t.mime === m || t.aliases.includes(m));
}

/** The allowed type a file name's ending names, if any (browsers leave the type empty for some files). */
export function attachmentTypeOfName(name: string): AttachmentType | undefined {
  const lower = name.toLowerCase();
  return ATTACHMENT_TYPES.find((t) => t.extensions.some((ext) => lower.endsWith(ext)));
}

/** The `accept` attribute of the attachment picker. */
export const ATTACHMENT_ACCEPT = ATTACHMENT_TYPES.flatMap((t) => [t.mime, ...t.extensions]).join(',');

// Messages of the composer (specification sections 5 and 8).
export const MESSAGE_TEXTS = {
  emptyText: 'Please enter a message',
  invalidTypeTitle: 'Invalid File Type',
  invalidType: (name: string) => `${name} has an unsupported file type`,
  tooLargeTitle: 'File Too Large',
  tooLarge: (name: string) => `${name} exceeds the 50MB size limit`,
  allUploadsFailed: 'Failed to upload all attachments',
  sendFailed: 'Failed to send message',
  sent: 'Message sent successfully',
  emptyThread: 'No messages yet. Start the conversation!',
  noPreview: 'Preview not available for this file type',
  sectionTitle: 'Project Communication',
  removed: 'This message was removed',
  edited: 'Edited',
  editWindowOver: 'A message can only be changed for 15 minutes after it was sent; it is now part of the record',
  notAuthor: 'Only the author of a message can change it',
  alreadyRemoved: 'This message was removed',
  markAllRead: 'Mark all as read',
} as const;

/** The composer's subject for a reply: 'Re: {subject}' (once, however long the exchange), or the first words of a message without one. */
export function replySubject(message: { subject: string; text: string }): string {
  const base = message.subject.trim() || message.text.trim().split('\n')[0].slice(0, 60).trim();
  const bare = base.replace(/^(re:\s*)+/i, '');
  return `Re: ${bare}`.slice(0, MESSAGE_SUBJECT_MAX).trim();
}

/** How long the author may edit or remove a message after sending it (issue 22, decision 244). */
export const MESSAGE_EDIT_WINDOW_MS = 15 * 60_000;

/** Whether a message is still within its author's edit window at `now` (the server decides; the screen only hides buttons). */
export function withinEditWindow(message: Pick<Message, 'createdAt'>, now: number): boolean {
  return now - new Date(message.createdAt).getTime() < MESSAGE_EDIT_WINDOW_MS;
}

/** The fixed start of the subject box, which the user cannot remove. */
export const SUBJECT_PREFIX = 'Subject: ';
export const MESSAGE_SUBJECT_MAX = 200;
export const MESSAGE_TEXT_MAX = 10_000;

/** The subject without the fixed prefix (older clients send it as part of the subject). */
function stripSubjectPrefix(subject: string): string {
  return subject.replace(/^\s*subject:\s*/i, '').trim();
}

const attachmentSchema = z.object({
  url: z.string(),
  publicId: z.string(),
  type: z.enum(ATTACHMENT_KINDS),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** The specification's JSON upload: the file's bytes as base64 (a data: URL is accepted too). */
export const jsonUploadBodySchema = z.object({
  file: z.string().min(1, 'The file is empty'),
  type: z.string().max(100).optional(),
  name: z.string().max(1000).optional(),
  mimeType: z.string().max(200).optional(),
});
export type JsonUploadBody = z.infer<typeof jsonUploadBodySchema>;

export const uploadResponseSchema = okResponse({ file: attachmentSchema });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Messages

/** An attachment reference when sending: the upload's answer (only its publicId counts) or the id itself. */
const attachmentRef = z
  .union([z.uuid(), z.object({ publicId: z.uuid() }).loose()])
  .transform((v) => (typeof v === 'string' ? v : v.publicId));

/** The subject as typed, with or without the fixed prefix: one line, at most 200 characters. */
const subjectField = () =>
  z
    .string()
    .max(MESSAGE_SUBJECT_MAX + SUBJECT_PREFIX.length)
    .transform(stripSubjectPrefix)
    .pipe(refineSingleLine(z.string(), 'The subject'));
const messageTextField = () =>
  multilineString().max(MESSAGE_TEXT_MAX).refine((t) => t.trim().length > 0, MESSAGE_TEXTS.emptyText).transform((t) => t.trim());

export const sendMessageBodySchema = z.object({
  subject: z.string().optional().default('').pipe(subjectField()),
  text: messageTextField(),
  /** Ignored: the server decides the receiver from the session and the project. Kept for the specification's shape. */
  receiverId: z.unknown().optional(),
  projectId: z.uuid('Choose a project'),
  attachments: z.array(attachmentRef).max(MESSAGE_ATTACHMENTS_MAX).optional().default([]),
});
export type SendMessageBody = z.input<typeof sendMessageBodySchema>;

/** A correction by the author (PATCH /messages/{id}): the same rules as a send; the subject is kept when left out. */
export const editMessageBodySchema = z.object({
  subject: subjectField().optional(),
  text: messageTextField(),
});

const personSchema = z.object({ _id: z.string(), name: z.string() });

const messageSchema = z.object({
  _id: z.string(),
  subject: z.string(),
  text: z.string(),
  senderId: personSchema,
  /**
   * The person who wrote it (decision 281): their side ('admin' = staff) and, for staff, the
   * company they write for. Beside the specification's senderId, which it repeats.
   */
  sender: z.object({ _id: z.string(), name: z.string(), role: z.enum(['admin', 'client']), organisation: z.string().nullable() }),
  /** The client, or the company itself (_id null) for a client's message to staff. */
  receiverId: z.object({ _id: z.string().nullable(), name: z.string() }),
  projectId: z.string(),
  /** True when the sender is staff (the company's side of the thread). */
  fromStaff: z.boolean(),
  /** For a client person, a staff message is read once they read it; for staff, once anyone of the client did. */
  isRead: z.boolean(),
  readAt: z.string().nullable(),
  /** The people of the client who read a staff message, first reader first (empty for a client's message). */
  readBy: z.array(z.object({ _id: z.string(), name: z.string(), readAt: z.string() })),
  createdAt: z.string(),
  /** When the author last corrected it, or null (the thread shows 'Edited'). */
  editedAt: z.string().nullable(),
  /** When the author removed it, or null: a removed message has no subject, text or attachments. */
  deletedAt: z.string().nullable(),
  attachments: z.array(attachmentSchema),
});
export type Message = z.infer<typeof messageSchema>;

export const messageResponseSchema = okResponse({ message: messageSchema });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/**
 * A page of a thread, oldest first; `hasMore` says whether older messages exist before it, and
 * `olderUnread` how many of those wait for the caller (so a badge can count what is not loaded).
 */
export const messageListResponseSchema = okResponse({
  messages: z.array(messageSchema),
  hasMore: z.boolean(),
  olderUnread: z.number().int().nonnegative(),
});
export type MessageListResponse = z.infer<typeof messageListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Thread paging (GET /messages/project/{projectId}?before=...&limit=...)

/** Messages in one page of a thread unless the caller asks for another size. */
export const THREAD_PAGE_SIZE_DEFAULT = 100;
/** The largest page a caller may ask for. */
export const THREAD_PAGE_SIZE_MAX = 200;

/** Where a message sits in its thread: creation time (to the millisecond, as the API shows it), then id for equal times. */
export interface ThreadPosition {
  createdAt: string;
  _id: string;
}

/** The `before` cursor of a message: its createdAt as the API gives it, '_', its id. */
export function threadCursor(message: ThreadPosition): string {
  return `${message.createdAt}_${message._id}`;
}

/** Orders two messages as the thread does (negative: `a` is older). Both keys compare as strings. */
export function compareThreadPosition(a: ThreadPosition, b: ThreadPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}

const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const CURSOR_INVALID = 'before must be the createdAt and _id of a message, joined by "_"';

/** The parsed `before` cursor: messages strictly older than this position are listed. */
const threadCursorSchema = z
  .string()
  .max(80)
  .transform((value, ctx) => {
    const match = CURSOR_PATTERN.exec(value);
    const createdAt = match ? new Date(match[1]) : null;
    if (!match || !createdAt || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== match[1]) {
      ctx.addIssue({ code: 'custom', message: CURSOR_INVALID });
      return z.NEVER;
    }
    return { createdAt, id: match[2].toLowerCase() };
  });

export const messageListQuerySchema = z.object({
  /** The oldest message the caller holds (see threadCursor); without it, the newest page. */
  before: threadCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(THREAD_PAGE_SIZE_MAX).default(THREAD_PAGE_SIZE_DEFAULT),
});

export const messageIdParamsSchema = z.object({ id: z.uuid() });
export const messageProjectParamsSchema = z.object({ projectId: z.uuid() });

/** Unread messages addressed to the signed-in user (for staff: from clients), per project. */
export const unreadCountsResponseSchema = okResponse({
  total: z.number().int(),
  byProject: z.record(z.string(), z.number().int()),
  /** The same per project with its client, the thread waiting longest first (staff's 'next unread'). */
  threads: z.array(z.object({ projectId: z.string(), clientId: z.string(), count: z.number().int() })),
});
export type UnreadCountsResponse = z.infer<typeof unreadCountsResponseSchema>;

/** Whether a message waits to be read by this viewer (staff read what clients send, a client what staff send). */
export function isUnreadFor(message: Pick<Message, 'isRead' | 'fromStaff'>, viewerRole: 'admin' | 'client'): boolean {
  return !message.isRead && message.fromStaff === (viewerRole === 'client');
}

// ---------------------------------------------------------------------------------------------
// Live events (GET /api/messages/stream)

const MESSAGE_EVENT_TYPES = ['message.created', 'message.read', 'message.edited', 'message.deleted', 'thread.read'] as const;
export const messageEventSchema = z.object({
  type: z.enum(MESSAGE_EVENT_TYPES),
  projectId: z.string(),
  clientId: z.string(),
  /** The message concerned; null for 'thread.read' (every message of the thread waiting for one side was marked read). */
  messageId: z.string().nullable(),
  /** For 'message.read' and 'thread.read': the person who read (a client's reads are per person, decision 281). */
  readerId: z.string().optional(),
});

/** The answer of 'Mark all as read' (PUT /messages/project/{projectId}/read): how many messages it marked. */
export const markThreadReadResponseSchema = okResponse({ marked: z.number().int().nonnegative() });
export type MarkThreadReadResponse = z.infer<typeof markThreadReadResponseSchema>;
export type MessageEvent = z.infer<typeof messageEventSchema>;

/** An earlier version of an edited message: what it said from `writtenAt` until `replacedAt` (decision 259). */
const messageVersionSchema = z.object({
  subject: z.string(),
  text: z.string(),
  writtenAt: z.string(),
  replacedAt: z.string(),
});
export type MessageVersion = z.infer<typeof messageVersionSchema>;
/** GET /messages/{id}/versions (staff): the earlier versions, newest first; empty for a message never edited. */
export const messageVersionsResponseSchema = okResponse({ versions: z.array(messageVersionSchema) });
export type MessageVersionsResponse = z.infer<typeof messageVersionsResponseSchema>;
