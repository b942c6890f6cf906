import sharp from 'sharp';
import { projects } from '../../server/db/schema/projects.ts';
import { createUser, signIn, type TestApp } from './test-app.ts';

/** The Origin the CSRF check expects on cookie-carrying writes (PUBLIC_URL's default in tests). */
export const SAME_ORIGIN = 'http://localhost:3000';

export interface Actor {
  id: string;
  name: string;
  headers: { cookie: string; origin: string };
}

/** A signed-in user with the headers of a same-origin browser request. */
export async function actor(t: TestApp, role: 'admin' | 'client', name?: string): Promise<Actor> {
  const user = await createUser(t, { role, name });
  const { cookie } = await signIn(t, user, role);
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

let codeCounter = 0;
/** Creates a project through the API as staff and returns its id. */
export async function createProjectVia(
  t: TestApp,
  admin: Actor,
  clientId: string,
  extra: Record<string, unknown> = {},
): Promise<{ _id: string; code: string; name: string }> {
  const code = `PRJ-${process.pid}-${++codeCounter}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: admin.headers,
    payload: { name: `Project ${code}`, code, clientId, budget: '2500000', ...extra },
  });
  if (res.statusCode !== 201) throw new Error(`project not created: ${res.statusCode} ${res.body}`);
  return res.json().project;
}

/** A real image of the given format, made by sharp. */
export async function makeImage(format: 'jpeg' | 'png' | 'webp', size = { width: 64, height: 48 }): Promise<Buffer> {
  const image = sharp({ create: { width: size.width, height: size.height, channels: 3, background: { r: 11, g: 92, b: 171 } } });
  return image[format]().toBuffer();
}

export interface MultipartFile {
  field: string;
  name: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser's FormData would send it. */
export async function multipart(fields: Record<string, string>, files: MultipartFile[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  };
}


/** A client with a project of its own (inserted directly) and a session. */
export interface ClientWithProject {
  id: string;
  auth: { cookie: string };
  projectId: string;
}

let projectSeq = 0;
export async function clientWithProject(t: TestApp, label: string): Promise<ClientWithProject> {
  const user = await createUser(t, { role: 'client' });
  const n = ++projectSeq;
  const [p] = await t.database.db
    .insert(projects)
    .values({ clientId: user.id, name: `${label} ${n}`, code: `${label.slice(0, 3).toUpperCase()}-${n}`, createdAt: t.clock.now() })
    .returning({ id: projects.id });
  return { id: user.id, auth: await signIn(t, user, 'client'), projectId: p.id };
}
