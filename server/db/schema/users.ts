import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { STAFF_ROLES } from '../../../common/permissions.ts';

export const USER_ROLES = ['admin', 'client'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    role: text('role', { enum: USER_ROLES }).notNull(),
    /** A staff account's role (decision 272): what it may do. Always set for staff, never for clients. */
    staffRole: text('staff_role', { enum: STAFF_ROLES }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** Clients sign in with a username; admins with their e-mail address. */
    username: text('username'),
    /** Null until the user sets a password through an invitation link. */
    passwordHash: text('password_hash'),
    /** Client pipeline status: new, in-progress, completed. */
    status: text('status').notNull().default('new'),
    /** The active TOTP secret, encrypted (`v2:keyid:iv:tag:ciphertext`, or `v1:iv:tag:ciphertext` from before decision 082; server/modules/auth/secret-box.ts). */
    mfaSecret: text('mfa_secret'),
    /** A secret being enrolled (first one, or a new phone), encrypted; becomes mfa_secret once a code confirms it. */
    mfaPendingSecret: text('mfa_pending_secret'),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    /** Whether a client is e-mailed when a progress report is added to one of its projects (Account dialog). */
    reportMail: boolean('report_mail').notNull().default(true),
    /** Set when staff archive a client: out of the default lists, read-only, cannot sign in (decision 247). */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Set when an owner deactivates a staff account: its sessions end and it cannot sign in (decision 275). */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When anything last happened for a client (its row, its projects, their messages): the
     * activity order of the client list (decision 258). Kept by database triggers (migration 0021)
     * in the same transaction as the write, never by service code; never null once a row is written.
     */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'users_staff_role_check',
      sql`(${t.role} = 'admin' and ${t.staffRole} is not null and ${t.staffRole} in ('owner', 'admin', 'project_manager', 'editor', 'support')) or (${t.role} <> 'admin' and ${t.staffRole} is null)`,
    ),
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    index('users_role_idx').on(t.role),
    // Staff search finds clients by any part of name, e-mail or username (ILIKE '%term%', decision 250).
    index('users_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    // The staff client list: live or archived clients, newest first (decision 248).
    index('users_clients_list_idx').on(t.role, sql`(${t.archivedAt} is null)`, t.createdAt),
    // The same list by last activity, walked by keyset (decision 258).
    index('users_clients_activity_idx').on(t.role, sql`(${t.archivedAt} is null)`, t.lastActivityAt, t.id),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the random token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** An admin session waiting for its second factor reaches nothing but the second-factor step. */
    mfaPending: boolean('mfa_pending').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);
