import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.ts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, conflict, notFound } from '../../../common/errors.ts';
import { singleLineText } from '../../../common/schemas/text.ts';
import { users } from '../../db/schema/users.ts';
import { disableMfa } from './mfa.service.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';
import { revokeUserSessions } from './sessions.service.ts';

const adminAccountSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address')),
  name: singleLineText('Name').min(1, 'Name is required').max(200),
  password: z.string(),
});

const COMMAND_LINE = { ...SYSTEM_ACTOR, actorLabel: 'system: command line' };

/** Creates an owner account (npm run admin:create, the seed; decision 272). Refuses an e-mail already in use. */
export async function createAdminAccount(
  app: FastifyInstance,
  input: { email: string; name: string; password: string },
) {
  const parsed = adminAccountSchema.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', parsed.error.issues[0].message);
  const { email, name, password } = parsed.data;
  assertAcceptablePassword(password, { email });
  const [existing] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (existing) throw conflict(`An account with the e-mail ${email} already exists.`);
  const now = app.clock.now();
  const passwordHash = await hashPassword(password);
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ role: 'admin', staffRole: 'owner', name, email, passwordHash, createdAt: now, updatedAt: now })
      .returning({ id: users.id, email: users.email, name: users.name });
    await recordAudit(tx, COMMAND_LINE, { action: 'staff.create', entityId: row.id, after: { name, email, role: 'admin', staffRole: 'owner' } });
    return row;
  });
}

/**
 * Resets an admin's second factor from the server's command line (npm run admin:reset-mfa), for
 * staff who lost their phone and their recovery codes: the factor, its recovery codes and every
 * session of the account end. Whoever can run this already holds the database, so nothing else is asked.
 */
export async function resetAdminSecondFactor(app: FastifyInstance, rawEmail: string) {
  const email = rawEmail.trim().toLowerCase();
  const [admin] = await app.db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, mfaEnabled: users.mfaEnabled })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (!admin || admin.role !== 'admin') throw notFound(`No admin account has the e-mail ${email}.`);
  await disableMfa(app, admin.id, COMMAND_LINE);
  await revokeUserSessions(app, admin.id);
  app.log.warn({ userId: admin.id }, 'second factor reset from the command line; every session of the account ended');
  return { name: admin.name, email: admin.email, hadSecondFactor: admin.mfaEnabled };
}
