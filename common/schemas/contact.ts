import { z } from 'zod';

// The contact form of the specification: name, email and message required; phone and company optional.

export const CONTACT_MESSAGE_ROWS = 19;
export const CONTACT_MESSAGE_MAX_CHARS = 5000;
export const CONTACT_MESSAGES = {
  sentTitle: 'Message Sent Successfully!',
  sentDescription: "We'll get back to you within 24 hours.",
  failed: 'Failed to send message. Please try again.',
} as const;

export const contactMessageFieldsSchema = z.object({
  name: z.string().trim().min(1, 'Please enter your name').max(200, 'Your name is too long (at most 200 characters)'),
  email: z.string().trim().min(1, 'Please enter your email address').max(254).pipe(z.email('Please enter a valid email address')),
  phone: z.string().trim().max(50, 'The phone number is too long (at most 50 characters)').optional().default(''),
  company: z.string().trim().max(200, 'The company name is too long (at most 200 characters)').optional().default(''),
  message: z
    .string()
    .trim()
    .min(1, 'Please enter your message')
    .max(CONTACT_MESSAGE_MAX_CHARS, `Your message is too long (at most ${CONTACT_MESSAGE_MAX_CHARS} characters)`),
});
export type ContactMessageFields = z.infer<typeof contactMessageFieldsSchema>;
export type ContactMessageInput = z.input<typeof contactMessageFieldsSchema>;

export const contactSubmitResponseSchema = z.object({ success: z.literal(true), message: z.string() });

export const CONTACT_INBOX_FILTERS = ['all', 'unread', 'read'] as const;
export const CONTACT_INBOX_PAGE_SIZE = 50;
export const contactInboxQuerySchema = z.object({
  filter: z.enum(CONTACT_INBOX_FILTERS).default('all'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const contactMessageSchema = z.object({
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

export const contactInboxResponseSchema = z.object({
  success: z.literal(true),
  messages: z.array(contactMessageSchema),
  total: z.number().int(),
  unread: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ContactInboxResponse = z.infer<typeof contactInboxResponseSchema>;

export const contactReadUpdateSchema = z.object({ isRead: z.boolean() });
export const contactMessageResponseSchema = z.object({ success: z.literal(true), message: contactMessageSchema });
