import type { AccessActor, AccessFixtureContext } from './access-table.ts';
import { createProjectVia, makeImage, multipart } from './portal.ts';

// Resources of client A and client B for the ownership checks of the authorisation test.

/** One project for each client, created by staff through the API. */
export async function projectsOfBoth(ctx: AccessFixtureContext) {
  const admin = ctx.admin as AccessActor;
  const a = await createProjectVia(ctx.t, admin, ctx.clientA.id);
  const b = await createProjectVia(ctx.t, admin, ctx.clientB.id);
  return { a, b };
}

/** One progress report with one image on a project. */
export async function reportOn(ctx: AccessFixtureContext, project: { _id: string; code: string; name: string }) {
  const body = await multipart(
    { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Survey', progress: 'Started' },
    [{ field: 'images', name: 'site.png', type: 'image/png', data: await makeImage('png') }],
  );
  const res = await ctx.t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...ctx.admin.headers, ...body.headers }, payload: body.payload });
  if (res.statusCode !== 201) throw new Error(`report not created: ${res.statusCode} ${res.body}`);
  const report = res.json().report as { _id: string; images: Array<{ _id: string }> };
  return { id: report._id, imageId: report.images[0]._id };
}

/** One timeline record on a project. */
export async function timelineOn(ctx: AccessFixtureContext, projectId: string) {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/gantt-charts',
    headers: ctx.admin.headers,
    payload: { projectId, projectTitle: 'Plan', tasks: [{ task: 'Mobilise', month: '2026-12' }] },
  });
  if (res.statusCode !== 201) throw new Error(`timeline not created: ${res.statusCode} ${res.body}`);
  return res.json().timeline._id as string;
}

/** Client A's own account and client B's, as the path parameter `param`. */
export const eachClient = (param: string) => async (ctx: AccessFixtureContext) => ({
  own: { [param]: ctx.clientA.id },
  other: { [param]: ctx.clientB.id },
});
