import { actor, createProjectVia, type Actor } from './portal.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.ts';

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

/** A test app whose mail goes to a local SMTP server of its own; `t.close()` stops that server too. */
export async function appWithSmtp(env: Record<string, string> = {}): Promise<{ t: TestApp; smtp: TestSmtpServer }> {
  const smtp = await startSmtpServer();
  const t = await createTestApp({ SMTP_URL: smtp.url, ...env });
  const closeApp = t.close;
  t.close = async () => {
    await closeApp();
    await smtp.close();
  };
  return { t, smtp };
}

/** A test app with a signed-in admin and two signed-in clients (named, when names are given). */
export async function appWithTwoClients(names: [string, string] | [] = []): Promise<{ t: TestApp; admin: Actor; clientA: Actor; clientB: Actor }> {
  const { t, admin } = await appWithAdmin();
  return { t, admin, clientA: await actor(t, 'client', names[0]), clientB: await actor(t, 'client', names[1]) };
}
