import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES } from '../../../common/permissions.ts';
import { isMovableClock } from '../../clock.ts';
import type { AppConfig } from '../../config.ts';
import { conflict } from '../../../common/errors.ts';
import { users } from '../../db/schema/users.ts';
import { generateUniqueUsername } from './invitations.service.ts';
import { hashPassword } from './passwords.ts';
import { sealMfaSecret } from './secret-box.ts';
import { generateTotpSecret } from './totp.ts';

/**
 * Browser tests need accounts, and a story about a scheduled time needs the server's clock moved.
 * These routes exist only in a test process started with E2E_TEST_HOOKS=1 (playwright.config.ts
 * does): never in development or production.
 */
export function testHooksEnabled(config: AppConfig, env: NodeJS.ProcessEnv = process.env): boolean {
  return config.NODE_ENV === 'test' && env.E2E_TEST_HOOKS === '1';
}

const createTestUserBody = z.object({
  role: z.enum(['admin', 'client']),
  name: z.string().min(1).max(200).optional(),
  password: z.string().min(1).max(256).optional(),
  /** Admins only: the staff role (decision 273); owner unless said. */
  staffRole: z.enum(STAFF_ROLES).optional(),
  /** Admins only: turn the second factor on and answer its secret, so the test can compute codes. */
  mfa: z.boolean().optional(),
  /** Clients only: leave the password unset (an invited client who has not chosen one yet). */
  invited: z.boolean().optional(),
});

/** Up to a year at a time; only forward, so sessions and rate-limit windows never see time run back. */
const advanceClockBody = z.object({ advanceMs: z.number().int().min(1).max(366 * 24 * 60 * 60_000) });

const testHookRoutes: FastifyPluginAsyncZod = async (app) => {
  // Moves this process's clock (the offset clock of a browser-test server, server/clock.ts) forward.
  // Only this process's: a second process on the same database keeps its own time.
  app.post(
    '/test/clock',
    {
      config: { access: 'public' },
      schema: { hide: true, body: advanceClockBody },
    },
    async (request) => {
      if (!isMovableClock(app.clock)) throw conflict("This server's clock cannot be moved");
      app.clock.advance(request.body.advanceMs);
      return { success: true, now: app.clock.now().toISOString() };
    },
  );

  app.post(
    '/test/users',
    {
      config: { access: 'public' },
      schema: { hide: true, body: createTestUserBody },
    },
    async (request, reply) => {
      const { role, mfa, invited } = request.body;
      const suffix = randomBytes(4).toString('hex');
      const name = request.body.name ?? `Test ${role} ${suffix}`;
      const password = request.body.password ?? `test-password-${randomBytes(6).toString('hex')}`;
      const email = `${role}-${suffix}@example.test`;
      const username = role === 'client' ? await generateUniqueUsername(app, { wanted: `${role}-${suffix}` }) : null;
      const mfaSecret = role === 'admin' && mfa ? generateTotpSecret() : null;
      // The id is chosen here because the sealed secret is bound to it.
      const id = randomUUID();
      const [row] = await app.db
        .insert(users)
        .values({
          id,
          role,
          staffRole: role === 'admin' ? (request.body.staffRole ?? 'owner') : null,
          name,
          email,
          username,
          passwordHash: invited ? null : await hashPassword(password),
          mfaSecret: mfaSecret ? sealMfaSecret(app.config.mfaEncryptionKey, id, mfaSecret) : null,
          mfaEnabled: !!mfaSecret,
          createdAt: app.clock.now(),
          updatedAt: app.clock.now(),
        })
        .returning({ id: users.id });
      return reply.status(201).send({
        success: true,
        user: { _id: row.id, name, role, email, username },
        password: invited ? null : password,
        mfaSecret,
      });
    },
  );
};

export default testHookRoutes;
