import { defineAccess, type AccessActor, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth, reportOn } from '../../../tests/helpers/access-fixtures.ts';

/** A pending approval request on a report of each client's project. */
async function requestOn(ctx: AccessFixtureContext, project: { _id: string; code: string; name: string }) {
  const report = await reportOn(ctx, project);
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/approvals',
    remoteAddress: ctx.adminAddress,
    headers: ctx.admin.headers,
    payload: { subject: { type: 'report', reportId: report.id }, dueOn: '2099-12-31' },
  });
  if (res.statusCode !== 201) throw new Error(`approval not requested: ${res.statusCode} ${res.body}`);
  return res.json().approval._id as string;
}

async function pendingOfBoth(ctx: AccessFixtureContext) {
  const { a, b } = await projectsOfBoth(ctx);
  return { own: { id: await requestOn(ctx, a) }, other: { id: await requestOn(ctx, b) } };
}

async function decide(ctx: AccessFixtureContext, who: AccessActor, id: string) {
  const res = await ctx.t.app.inject({ method: 'POST', url: `/api/approvals/${id}/decision`, headers: who.headers, payload: { decision: 'approved' } });
  if (res.statusCode !== 200) throw new Error(`not decided: ${res.statusCode} ${res.body}`);
}

async function decidedOfBoth(ctx: AccessFixtureContext) {
  const both = await pendingOfBoth(ctx);
  await decide(ctx, ctx.clientA, both.own.id);
  await decide(ctx, ctx.clientB, both.other.id);
  return both;
}

// Access expectations of the approvals routes (decision 293; see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'POST', url: '/api/approvals', access: { staff: 'projects.write' }, body: { subject: { type: 'report', reportId: '00000000-0000-4000-8000-000000000000' }, dueOn: '2099-12-31' } },
  { method: 'GET', url: '/api/approvals/waiting', access: { staff: 'projects.read', client: true } },
  {
    method: 'GET',
    url: '/api/approvals/project/:projectId',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  { method: 'POST', url: '/api/approvals/:id/decision', access: { client: 'approvals.decide' }, body: { decision: 'approved' }, fixture: pendingOfBoth },
  { method: 'POST', url: '/api/approvals/:id/close', access: { staff: 'projects.write' }, fixture: pendingOfBoth },
  { method: 'GET', url: '/api/approvals/:id/certificate', access: { staff: 'projects.read', client: true }, fixture: decidedOfBoth },
]);
