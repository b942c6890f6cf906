import { actor, createProjectVia, type Actor } from './portal.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// The set-ups most API test files start with, in one place: the file keeps its own `t` and actors,
//   beforeAll(async () => ({ t, admin } = await appWithAdmin()));
//   afterAll(() => t?.close());

type AppArgs = Parameters<typeof createTestApp>;

/** A test app on its own database with a signed-in admin. */
export async function appWithAdmin(...args: AppArgs): Promise<{ t: TestApp; admin: Actor }> {
  const t = await createTestApp(...args);
  return { t, admin: await actor(t, 'admin') };
}

/** A test app with a signed-in admin and a signed-in client. */
export async function appWithAdminAndClient(...args: AppArgs): Promise<{ t: TestApp; admin: Actor; client: Actor }> {
  const { t, admin } = await appWithAdmin(...args);
  return { t, admin, client: await actor(t, 'client') };
}

/** A test app with a signed-in admin and client, and a project of the client's made through the API. */
export async function appWithProject(
  projectName: string,
  ...args: AppArgs
): Promise<{ t: TestApp; admin: Actor; client: Actor; project: { _id: string; code: string; name: string } }> {
  const { t, admin, client } = await appWithAdminAndClient(...args);
  return { t, admin, client, project: await createProjectVia(t, admin, client.id, { name: projectName }) };
}
