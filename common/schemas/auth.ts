import '../zod-setup.ts';
import { z } from 'zod';
import { mailOutcomeSchema } from './mail.ts';
import { okResponse } from './ok-response.ts';
import { MEMBER_ROLES, PERMISSIONS, STAFF_ROLES } from '../permissions.ts';

/** The signed-in user as the API shows it: never secrets. */
const publicUserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'client']),
  /** A client member's organisation (the Client whose projects it sees) and role in it (decision 279); /auth/me gives them. */
  organisationId: z.string().nullable().optional(),
  memberRole: z.enum(MEMBER_ROLES).nullable().optional(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/**
 * GET /auth/me: the specification's user, plus (decision 273) the staff role and the permissions it
 * grants, so the admin screens show only what the caller may use. Clients: null and [].
 */
const meUserSchema = publicUserSchema.extend({
  staffRole: z.enum(STAFF_ROLES).nullable(),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type MeUser = z.infer<typeof meUserSchema>;
export const meResponseSchema = okResponse({ user: meUserSchema });

// OWASP ASVS 2.1: at least 12 characters; long passphrases allowed, but bounded so hashing stays cheap.
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
export const PASSWORD_TOO_SHORT = `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
export const PASSWORD_TOO_COMMON = 'This password is too common or too easy to guess. Please choose another one.';

/** A password being chosen (invitation, reset, change); the common-password check happens on the server. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX_LENGTH, `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`);

/** A password being typed to sign in: anything non-empty within bounds (old accounts may predate the rules). */
const typedPassword = z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH);

export const USERNAME_RULE = /^[a-z0-9][a-z0-9._-]{2,39}$/;

// Messages of the login screens (specification, section 8).
export const CLIENT_LOGIN_FAILED = 'Invalid username or password.';
/** A right password of a client account staff archived (decision 247). */
export const ACCOUNT_ARCHIVED = 'This account has been archived. Please contact us to restore access.';
export const ACCOUNT_DEACTIVATED = 'This staff account has been deactivated. Please ask an owner to restore access.';
export const ADMIN_LOGIN_FAILED = 'Unable to verify this session.';
/** A mistyped admin e-mail or password (the same words for both, so addresses cannot be probed). */
export const ADMIN_WRONG_CREDENTIALS = 'The e-mail address or password is incorrect.';

export const clientLoginBodySchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(254),
  password: typedPassword,
});

export const adminLoginBodySchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: typedPassword,
});

/**
 * What an admin still has to do after the password: nothing, enter a code, or enrol an
 * authenticator first (when the second factor is required and none is set up yet).
 */
const MFA_STEPS = ['verify', 'enrol'] as const;
export type MfaStep = (typeof MFA_STEPS)[number];

export const loginResponseSchema = okResponse({
  token: z.string(),
  user: publicUserSchema,
  /** Present when the session is not usable until the second factor is given. */
  mfa: z.enum(MFA_STEPS).optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const successResponseSchema = okResponse({ message: z.string().optional() });

// Second factor.
export const mfaCodeBodySchema = z.object({
  /** Six digits from the authenticator app, or one recovery code. */
  code: z
    .string()
    .trim()
    .min(6, 'Enter the 6-digit code')
    .max(40)
    .transform((v) => v.replace(/\s+/g, '')),
});
/**
 * Starting enrolment: right after the password (a half-signed-in admin who must enrol) nothing more;
 * from a full session (turning the second factor on by choice) the password again.
 */
export const mfaEnrolmentBodySchema = z
  .object({ password: z.string().max(PASSWORD_MAX_LENGTH).optional() })
  .nullish();
export const MFA_ENROLMENT_PASSWORD_REQUIRED = 'Enter your password to turn on two-step verification.';
export const MFA_ENROLMENT_PASSWORD_WRONG = 'The password is not correct.';
export const mfaEnrolmentResponseSchema = okResponse({
  /** Base32 secret, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as an SVG QR code in a data URL, for an <img>. */
  qrCode: z.string(),
});
export type MfaEnrolmentResponse = z.infer<typeof mfaEnrolmentResponseSchema>;
export const mfaConfirmResponseSchema = loginResponseSchema.extend({
  recoveryCodes: z.array(z.string()),
});
export type MfaConfirmResponse = z.infer<typeof mfaConfirmResponseSchema>;

export const mfaStatusResponseSchema = okResponse({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number(),
  /** ADMIN_MFA_REQUIRED: when on, the factor cannot be turned off (only moved to a new phone). */
  required: z.boolean(),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponseSchema>;

/**
 * Managing an active second factor (new recovery codes, a new phone, turning it off): the password
 * again and a code, so a borrowed session alone can do none of it.
 */
export const mfaManageBodySchema = z.object({
  password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH),
  code: z
    .string()
    .trim()
    .min(1, 'Enter a code.')
    .max(40)
    .transform((v) => v.replace(/\s+/g, '')),
});
export type MfaManageBody = z.infer<typeof mfaManageBodySchema>;
export const recoveryCodesResponseSchema = okResponse({ recoveryCodes: z.array(z.string()) });
export const MFA_NOT_ON = 'Two-step verification is not on for this account.';
export const MFA_TOTP_CODE_NEEDED = 'Enter the current 6-digit code from your authenticator app.';
export const MFA_REQUIRED_CANNOT_TURN_OFF =
  'Two-step verification is required for staff accounts on this site, so it cannot be turned off. If you have a new phone, use "Set up a new authenticator" instead.';
export const MFA_TURNED_OFF = 'Two-step verification is off. Signing in now asks only for your password.';

// Passwords.
export const forgotPasswordBodySchema = z.object({
  /** Username (clients) or e-mail address (clients and admins). */
  identifier: z.string().trim().min(1, 'Enter your username or e-mail address').max(254),
});
export const FORGOT_PASSWORD_ANSWER =
  'If an account matches, we have sent an e-mail with a link to reset the password. The link is valid for 1 hour.';
/** The answer while the site has no mail transport: no link can leave, so none is promised. */
export const FORGOT_PASSWORD_NO_MAIL =
  'We cannot send e-mail at the moment, so no reset link can reach you. Please contact us by phone and we will help you sign in.';

export const tokenBodySchema = z.object({ token: z.string().min(10).max(200) });
/** A reset link that is still usable, and until when. */
export const resetLinkInfoResponseSchema = okResponse({ expiresAt: z.string() });
export const setPasswordBodySchema = z.object({ token: z.string().min(10).max(200), password: newPasswordSchema });

export const setPasswordResponseSchema = okResponse({
  /** Which login screen the user goes to next. */
  role: z.enum(['admin', 'client']),
  username: z.string().nullable(),
});

export const invitationInfoResponseSchema = okResponse({
  name: z.string(),
  username: z.string().nullable(),
  expiresAt: z.string(),
});
export type InvitationInfo = z.infer<typeof invitationInfoResponseSchema>;

export const changePasswordBodySchema = z.object({
  currentPassword: typedPassword,
  newPassword: newPasswordSchema,
});

// Invitations managed by staff.
export const invitationUserParamsSchema = z.object({ userId: z.uuid() });
export const invitationLinkResponseSchema = okResponse({
  url: z.string(),
  expiresAt: z.string(),
  /** Whether the link's e-mail went out, so staff know whether to pass the link on themselves. */
  mail: mailOutcomeSchema,
});
export const invitationStatusResponseSchema = okResponse({
  /** pending: a live link exists; accepted: the client has a password; none: no live link and no password. */
  status: z.enum(['pending', 'accepted', 'none']),
  expiresAt: z.string().nullable(),
});

// Login audit.
/** What a sign-in attempt came to: the audit's filter and the `login_attempts.result` column (server/db/schema/auth.ts). */
export const LOGIN_RESULT_VALUES = [
  'success',
  /** Password right; the session waits for the second factor. */
  'mfa-pending',
  'wrong-password',
  'unknown-account',
  /** The account exists but its invitation was never used; answered exactly like a wrong password. */
  'password-not-set',
  'blocked-address',
  'rate-limited',
  'wrong-second-factor',
  /** Password right, but staff archived the client (decision 247). */
  'archived-account',
  /** Password right, but an owner deactivated the staff account (decision 275). */
  'deactivated-account',
] as const;
const AUDIT_PAGE_SIZE = 50;
export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(AUDIT_PAGE_SIZE),
  result: z.enum(LOGIN_RESULT_VALUES).optional(),
});
const loginAttemptSchema = z.object({
  _id: z.string(),
  at: z.string(),
  ip: z.string(),
  portal: z.enum(['client', 'admin']),
  account: z.string(),
  userId: z.string().nullable(),
  result: z.enum(LOGIN_RESULT_VALUES),
});
export const auditResponseSchema = okResponse({
  attempts: z.array(loginAttemptSchema),
  pagination: z.object({ page: z.number(), pageSize: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;
