import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MEMBER_ROLES, STAFF_ROLES } from '../../../common/permissions.ts';

export const USER_ROLES = ['admin', 'client'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * A client organisation (decision 279): the client of the specification, with one or more people.
 * Its id is the id of its first admin member's users row (for every client that existed before
 * organisations, and for every client created since), so projects.client_id, /users/clients/{id}
 * and every cache key keep their values.
 */
export const clientOrganisations = pgTable('client_organisations', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  status: text('status').notNull().default('new'),
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    role: text('role', { enum: USER_ROLES }).notNull(),
    /** A staff account's role (decision 272): what it may do. Always set for staff, never for clients. */
    staffRole: text('staff_role', { enum: STAFF_ROLES }),
    /** A client's organisation (decision 279); null for staff. */
    organisationId: uuid('organisation_id').references(() => clientOrganisations.id, { onDelete: 'restrict' }),
    /** A client's role in its organisation (decision 279): set for clients, null for staff. */
    memberRole: text('member_role', { enum: MEMBER_ROLES }),
    /** A member its organisation removed: kept (its messages name it), cannot sign in (archived_at is set too), not listed. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
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
    check(
      'users_member_role_check',
      sql`(${t.role} = 'client' and ${t.memberRole} is not null and ${t.memberRole} in ('admin', 'approver', 'member', 'finance') and ${t.organisationId} is not null) or (${t.role} <> 'client' and ${t.memberRole} is null and ${t.organisationId} is null)`,
    ),
    index('users_organisation_idx').on(t.organisationId),
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
