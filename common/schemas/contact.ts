import '../zod-setup.ts';
import { z } from 'zod';
import { refineSingleLine } from './text.ts';
import { CONTACT_FIELD_MESSAGES, CONTACT_LINE_WORDS as W, CONTACT_MESSAGE_MAX_CHARS, type ContactFieldName } from './contact-form.ts';
import type { SameKeys } from './form-check.ts';
import { multilineString } from './line-endings.ts';
import { okResponse } from './ok-response.ts';

// The contact form of the specification: name, email and message required; phone and company optional.
// Its words and the rules of the browser's check are in contact-form.ts (decision 144).

export { CONTACT_MESSAGE_MAX_CHARS, CONTACT_MESSAGES } from './contact-form.ts';
const M = CONTACT_FIELD_MESSAGES;

export const contactMessageFieldsSchema = z.object({
  name: refineSingleLine(z.string().trim(), W.name).min(1, M.nameMissing).max(200, M.nameTooLong),
  email: z.string().trim().min(1, M.emailMissing).max(254).pipe(z.email(M.emailInvalid)),
  phone: refineSingleLine(z.string().trim(), W.phone).max(50, M.phoneTooLong).optional().default(''),
  company: refineSingleLine(z.string().trim(), W.company).max(200, M.companyTooLong).optional().default(''),
  message: multilineString().trim().min(1, M.messageMissing).max(CONTACT_MESSAGE_MAX_CHARS, M.messageTooLong),
});
export type ContactMessageFields = z.infer<typeof contactMessageFieldsSchema>;
// contact-form.ts names the fields without importing this file (no import cycle); the build fails
// when the two lists differ.
const _sameFieldNames: SameKeys<keyof ContactMessageFields, ContactFieldName> = true;
export type ContactMessageInput = z.input<typeof contactMessageFieldsSchema>;

export const contactSubmitResponseSchema = okResponse({ message: z.string() });

const CONTACT_INBOX_FILTERS = ['all', 'unread', 'read'] as const;
export const CONTACT_INBOX_PAGE_SIZE = 50;
export const contactInboxQuerySchema = z.object({
  filter: z.enum(CONTACT_INBOX_FILTERS).default('all'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

const contactMessageSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  company: z.string(),
  message: z.string(),
  isRead: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const contactInboxResponseSchema = okResponse({
  messages: z.array(contactMessageSchema),
  total: z.number().int(),
  unread: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ContactInboxResponse = z.infer<typeof contactInboxResponseSchema>;

export const contactReadUpdateSchema = z.object({ isRead: z.boolean() });
export const contactMessageResponseSchema = okResponse({ message: contactMessageSchema });
