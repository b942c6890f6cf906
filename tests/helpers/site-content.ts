import type { StaffRole } from '../../common/permissions.ts';
import { buildApp } from '../../server/app.ts';
import { createDatabase } from '../../server/db/client.ts';
import { SAME_ORIGIN, type Actor } from './portal.ts';
import { createUser, signIn, type TestApp } from './test-app.ts';

/** A signed-in staff member of the given role, with same-origin browser headers. */
export async function staff(t: TestApp, staffRole: StaffRole, name = `Staff ${staffRole}`): Promise<Actor> {
  const user = await createUser(t, { role: 'admin', name, staffRole });
  const { cookie } = await signIn(t, user, 'admin');
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

/** A second application process on the test app's database and clock (as behind a load balancer). */
export async function secondInstance(t: TestApp) {
  const database = createDatabase(t.databaseUrl, { max: 2 });
  const app = await buildApp({ config: t.config, database, logger: false, clock: t.clock });
  await app.ready();
  const close = () => app.close().then(() => database.close());
  return { app, close };
}
