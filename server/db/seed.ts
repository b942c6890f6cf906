import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { SeedContext, SeededAccount } from './seed-context.ts';
import { users } from './schema/users.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { addSamplePosts, seedSamplePosts } from '../modules/blog/blog.seed.ts';

/** The demo accounts of a local database; their passwords are new on every run and printed once. */
export const DEMO_ADMIN = { email: 'admin@demo.example', name: 'Demo Admin' };
const DEMO_CLIENT = { username: 'demo.client', email: 'client@demo.example', name: 'Demo Client Ltd' };

/**
 * Extension point: other domains add demo data by appending a step here, e.g.
 *   import { seedDemoProjects } from '../modules/projects/projects.seed.ts';
 *   const SEED_STEPS = [seedSamplePosts, seedDemoProjects];
 * Each step receives the demo admin and client and must be safe to run again.
 */
const SEED_STEPS: Array<(ctx: SeedContext) => Promise<void>> = [seedSamplePosts];

const newPassword = () => `demo-${randomBytes(9).toString('base64url')}`;

async function upsertUser(app: FastifyInstance, values: { role: 'admin' | 'client'; name: string; email: string; username: string | null }, password: string) {
  const passwordHash = await hashPassword(password);
  const now = app.clock.now();
  const [existing] = await app.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${values.email}`).limit(1);
  if (existing) {
    await app.db.execute(sql`UPDATE users SET password_hash = ${passwordHash}, updated_at = ${now} WHERE id = ${existing.id}`);
    return existing.id;
  }
  const staffRole = values.role === 'admin' ? ('owner' as const) : null;
  const [row] = await app.db.insert(users).values({ ...values, staffRole, passwordHash, createdAt: now, updatedAt: now }).returning({ id: users.id });
  return row.id;
}

/** Creates (or refreshes) the demo admin and client, then runs the other domains' seed steps. Never in production. */
export async function seedDatabase(app: FastifyInstance): Promise<{ admin: SeededAccount; client: SeededAccount; report: string[] }> {
  if (app.config.isProduction) throw new Error('The seed creates demo accounts with known passwords; it refuses to run with NODE_ENV=production.');
  const adminPassword = newPassword();
  const clientPassword = newPassword();
  const admin: SeededAccount = {
    id: await upsertUser(app, { role: 'admin', name: DEMO_ADMIN.name, email: DEMO_ADMIN.email, username: null }, adminPassword),
    name: DEMO_ADMIN.name,
    login: DEMO_ADMIN.email,
    password: adminPassword,
  };
  const client: SeededAccount = {
    id: await upsertUser(app, { role: 'client', name: DEMO_CLIENT.name, email: DEMO_CLIENT.email, username: DEMO_CLIENT.username }, clientPassword),
    name: DEMO_CLIENT.name,
    login: DEMO_CLIENT.username,
    password: clientPassword,
  };
  const report: string[] = [];
  for (const step of SEED_STEPS) await step({ app, admin, client, report: (line) => report.push(line) });
  return { admin, client, report };
}

/**
 * A development server's first start on an empty database (no account yet: nobody has used it) adds
 * the specification's two sample posts, so a newcomer sees the articles pages working (decision 205).
 * Never in production, nor under test (suites start from an empty blog). Once anyone has an account,
 * nothing is added: posts staff deleted are not brought back. Returns how many posts it added.
 */
export async function seedFirstStart(app: FastifyInstance): Promise<number> {
  if (app.config.NODE_ENV !== 'development') return 0;
  const [anyone] = await app.db.select({ id: users.id }).from(users).limit(1);
  if (anyone) return 0;
  return addSamplePosts(app, { id: null, name: 'sample data' });
}
