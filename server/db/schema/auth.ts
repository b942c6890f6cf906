import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { LOGIN_RESULT_VALUES } from '../../../common/schemas/auth.ts';
import { users } from './users.ts';

export const AUTH_TOKEN_PURPOSES = ['invitation', 'password-reset'] as const;
export type AuthTokenPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];

/** Single-use links (client invitations, password resets); only the SHA-256 of the token is kept. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: AUTH_TOKEN_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull().unique('auth_tokens_token_hash_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId, t.purpose)],
);

export const LOGIN_PORTALS = ['client', 'admin'] as const;
export type LoginPortal = (typeof LOGIN_PORTALS)[number];

// The list is written once, in common/, where the audit's filter reads it too.
export const LOGIN_RESULTS = LOGIN_RESULT_VALUES;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

/**
 * Every sign-in attempt, allowed or not. It is the audit trail staff read, and also the counter
 * store of the login rate limits (the process keeps no state of its own).
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip').notNull(),
    /** What the per-address limit counts by: the IPv4 address, or the /64 of an IPv6 one (decision 191). */
    addressKey: text('address_key').notNull().default(''),
    /** The trusted-device id of the browser that tried, when it had one for this account (decision 192). */
    device: text('device'),
    portal: text('portal', { enum: LOGIN_PORTALS }).notNull(),
    /** The username or e-mail typed, lower-cased and trimmed (kept for unknown accounts too). */
    account: text('account').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    result: text('result', { enum: LOGIN_RESULTS }).notNull(),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('login_attempts_account_idx').on(t.portal, t.account, t.at),
    index('login_attempts_ip_idx').on(t.ip, t.at),
    index('login_attempts_address_key_idx').on(t.addressKey, t.at),
    index('login_attempts_device_idx').on(t.device, t.at),
    index('login_attempts_at_idx').on(t.at),
  ],
);

/** One-time recovery codes of an admin's second factor, stored hashed. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/**
 * Time steps of authenticator codes already accepted, so a code seen over someone's shoulder cannot
 * be used a second time (RFC 6238 section 5.2). The primary key makes the check race-free.
 */
export const mfaUsedSteps = pgTable(
  'mfa_used_steps',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    step: bigint('step', { mode: 'number' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.step] })],
);

/**
 * First-run set-up links (decision 160): while no admin exists, each server start writes one, valid
 * one hour and usable once. Only the SHA-256 of the token is kept, so every process sees the same
 * links and a database dump reveals none.
 */
export const setupLinks = pgTable('setup_links', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  tokenHash: text('token_hash').notNull().unique('setup_links_token_hash_unique'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
