import { sql, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema/users.ts';

/**
 * The users row that stands for the specification's Client: its organisation's founder, whose id is
 * the organisation's (decision 279). Colleagues are client rows too, but never a Client of their own.
 */
export const IS_CLIENT_ACCOUNT: SQL = sql`${users.id} = ${users.organisationId}`;

/** A client person's identity as the API shows it: a Client (its founder) and a member alike. */
export const personOf = (row: { id: string; name: string; email: string; username: string | null }) => ({ _id: row.id, name: row.name, email: row.email, username: row.username });
