import '../zod-setup.ts';
import { z } from 'zod';
import { singleLineText, storableText } from './text.ts';
import { USERNAME_RULE } from './auth.ts';
import { cursorListResponse } from './pagination.ts';
import { listQuerySchema } from './archive.ts';
import { mailOutcomeSchema } from './mail.ts';
import { NOTHING_TO_CHANGE, namesAField, withoutDefaults } from './patch.ts';
import { okResponse } from './ok-response.ts';

/** A client's place in the company's pipeline (specification section 4). */
export const CLIENT_STATUSES = ['new', 'in-progress', 'completed'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** Clicking a client's badge cycles new → in-progress → completed → new. */
export function nextClientStatus(status: ClientStatus): ClientStatus {
  return CLIENT_STATUSES[(CLIENT_STATUSES.indexOf(status) + 1) % CLIENT_STATUSES.length];
}

/** The same three states as GET /auth/invitations/:userId answers. */
const CLIENT_INVITATION_STATES = ['pending', 'accepted', 'none'] as const;
export type ClientInvitationState = (typeof CLIENT_INVITATION_STATES)[number];

const clientSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  status: z.enum(CLIENT_STATUSES),
  /** Messages from this client that staff have not read yet. */
  unreadCount: z.number().int(),
  /** How many projects the client has. */
  projects: z.number().int(),
  createdAt: z.string(),
  /**
   * Where the client's account stands: accepted (a password is set, the account is active),
   * pending (a live invitation link exists) or none (the link expired or was revoked).
   */
  invitation: z.enum(CLIENT_INVITATION_STATES),
  /** When the pending invitation link stops working; null unless pending. */
  invitationExpiresAt: z.string().nullable(),
  /** When staff archived the client (no sign-in, read-only since); null while live. */
  archivedAt: z.string().nullable(),
});
export type Client = z.infer<typeof clientSchema>;

export const clientListResponseSchema = cursorListResponse({ clients: z.array(clientSchema) });
export type ClientListResponse = z.infer<typeof clientListResponseSchema>;

/**
 * Suggests a username from the client's name while staff type (a shared mailbox's local part, such
 * as 'projects', names nobody); the server makes it unique; staff may edit it.
 */
export function suggestUsername(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '.')
    .replace(/[._-]{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 36);
  return base.length >= 3 ? base : '';
}

const clientFieldsSchema = z.object({
  name: singleLineText('Name').min(1, 'Name is required').max(200),
  email: storableText().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address').max(254)),
  /** Left empty, the server picks a free one from the name or e-mail address. */
  username: z
    .string()
    .trim()
    .toLowerCase()
    .regex(USERNAME_RULE, 'Username: 3 to 40 lower-case letters, digits, dots, dashes or underscores')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export const createClientBodySchema = clientFieldsSchema;
export type CreateClientBody = z.input<typeof createClientBodySchema>;

export const createClientResponseSchema = okResponse({
  client: clientSchema,
  /** The link the client uses to set a password; staff may copy it to send it another way. */
  invitationUrl: z.string(),
  invitationExpiresAt: z.string().optional(),
  /** Whether the invitation's e-mail went out, so staff know whether to pass the link on themselves. */
  invitationMail: mailOutcomeSchema,
});
export type CreateClientResponse = z.infer<typeof createClientResponseSchema>;

/** GET /users/clients/username-check: is this username free, and a free one from the name. */
export const usernameCheckQuerySchema = z.object({
  username: z.string().trim().toLowerCase().max(254).optional().default(''),
  name: z.string().trim().max(200).optional().default(''),
});
export const usernameCheckResponseSchema = okResponse({
  /** The username asked about, or null when none was given. */
  username: z.string().nullable(),
  /** Whether that username is free (null when none was given). */
  available: z.boolean().nullable(),
  /** A free username made from the asked one, else the name. */
  suggestion: z.string(),
});
export type UsernameCheckResponse = z.infer<typeof usernameCheckResponseSchema>;

/** GET /users/clients: the page, a status filter and an order (decision 248). */
export const clientListQuerySchema = listQuerySchema(CLIENT_STATUSES);
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

export const clientIdParamsSchema = z.object({ id: z.uuid() });

export const updateClientStatusBodySchema = z.object({ status: z.enum(CLIENT_STATUSES) });

export const clientResponseSchema = okResponse({ client: clientSchema });
export type ClientResponse = z.infer<typeof clientResponseSchema>;

/**
 * PATCH /users/clients/{id}: any of name, e-mail, username and status, with creation's rules and
 * messages. Other fields are refused (400), so a misspelt field is not silently ignored.
 */
export const updateClientBodySchema = withoutDefaults(clientFieldsSchema)
  .extend({ status: z.enum(CLIENT_STATUSES) })
  .partial()
  .strict()
  .refine(namesAField, NOTHING_TO_CHANGE);
export type UpdateClientBody = z.input<typeof updateClientBodySchema>;

export const updateClientResponseSchema = okResponse({
  client: clientSchema,
  /**
   * Present when the change re-issued the client's pending invitation (a new e-mail address or
   * username while no password is set; decision 241): the new link and what became of its mail.
   */
  invitation: z.object({ url: z.string(), expiresAt: z.string(), mail: mailOutcomeSchema }).optional(),
});
export type UpdateClientResponse = z.infer<typeof updateClientResponseSchema>;
