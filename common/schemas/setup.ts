import '../zod-setup.ts';
import { z } from 'zod';
import { loginResponseSchema, newPasswordSchema } from './auth.ts';
import { singleLineText } from './text.ts';
import { okResponse } from './ok-response.ts';

// First-run set-up of the first admin account (decision 160).

/** How long a printed set-up link works. */
export const SETUP_LINK_LIFETIME_MS = 60 * 60_000;

export const SETUP_CLOSED =
  'The first admin account already exists, so this set-up page is closed for good. Sign in on the admin login page instead.';
export const SETUP_LINK_INVALID =
  'This set-up link does not work: it has expired (links last one hour), was already used, or was not copied whole. Restart the server to print a new one, or run "npm run admin:create".';

const setupTokenSchema = z.string().min(10, 'The set-up link is incomplete').max(200, 'The set-up link is not valid');

export const setupInspectBodySchema = z.object({ token: setupTokenSchema });

export const setupInspectResponseSchema = okResponse({
  expiresAt: z.string(),
  /** True when the new admin must set up an authenticator app right after (ADMIN_MFA_REQUIRED). */
  mfaRequired: z.boolean(),
});
export type SetupInspectResponse = z.infer<typeof setupInspectResponseSchema>;

export const setupAdminBodySchema = z.object({
  token: setupTokenSchema,
  name: singleLineText('Name').min(1, 'Name is required').max(200, 'The name is too long (200 characters at most)'),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address')),
  password: newPasswordSchema,
});
export type SetupAdminBody = z.infer<typeof setupAdminBodySchema>;

export const setupAdminResponseSchema = loginResponseSchema;

/** Whether the first-run set-up is open; answered truthfully only to callers on an admin network. */
export const setupStatusResponseSchema = okResponse({
  open: z.boolean(),
  /** Whether ADMIN_ALLOWED_CIDRS limits the admin sign-in (the admin login says which). */
  addressRestricted: z.boolean(),
});
export type SetupStatusResponse = z.infer<typeof setupStatusResponseSchema>;

/** The web page's load-context key: whether the set-up page still exists. */
export const SETUP_CONTEXT_KEY = 'firstRunSetup';
export interface SetupReader {
  isOpen(): Promise<boolean>;
}
