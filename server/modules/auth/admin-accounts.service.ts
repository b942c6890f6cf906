import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, conflict } from '../../../common/errors.ts';
import { users } from '../../db/schema/users.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';

export const adminAccountSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid e-mail address')),
  name: z.string().trim().min(1, 'Name is required').max(200),
  password: z.string(),
});

/** Creates an admin account (npm run admin:create, the seed). Refuses an e-mail already in use. */
export async function createAdminAccount(app: FastifyInstance, input: { email: string; name: string; password: string }) {
  const parsed = adminAccountSchema.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', parsed.error.issues[0].message);
  const { email, name, password } = parsed.data;
  assertAcceptablePassword(password, { email });
  const [existing] = await app.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  if (existing) throw conflict(`An account with the e-mail ${email} already exists.`);
  const now = app.clock.now();
  const [row] = await app.db
    .insert(users)
    .values({ role: 'admin', name, email, passwordHash: await hashPassword(password), createdAt: now, updatedAt: now })
    .returning({ id: users.id, email: users.email, name: users.name });
  return row;
}
