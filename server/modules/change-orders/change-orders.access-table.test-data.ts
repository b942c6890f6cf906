import { defineAccess, type AccessActor, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';

const DRAFT = { title: 'Extra piles', description: 'Four more piles at the quay head', cost: '4,500,000.50', scheduleDays: 21 };

/** A change order on each client's project, drafted (and, with `send`, sent) by staff. */
async function changeOrdersOfBoth(ctx: AccessFixtureContext, send: boolean) {
  const { a, b } = await projectsOfBoth(ctx);
  const make = async (projectId: string) => {
    const headers = ctx.admin.headers;
    const res = await ctx.t.app.inject({ method: 'POST', url: `/api/change-orders/project/${projectId}`, headers, remoteAddress: ctx.adminAddress, payload: DRAFT });
    if (res.statusCode !== 201) throw new Error(`change order not drafted: ${res.statusCode} ${res.body}`);
    const id = res.json().changeOrder._id as string;
    if (send) await ctx.t.app.inject({ method: 'POST', url: `/api/change-orders/${id}/send`, headers, remoteAddress: ctx.adminAddress });
    return id;
  };
  return { own: { id: await make(a._id) }, other: { id: await make(b._id) } };
}

/** A change order on each client's project, sent and approved by that client. */
async function decidedOfBoth(ctx: AccessFixtureContext) {
  const both = await changeOrdersOfBoth(ctx, true);
  const decide = async (who: AccessActor, id: string) => {
    const res = await ctx.t.app.inject({ method: 'POST', url: `/api/change-orders/${id}/decision`, headers: who.headers, payload: { decision: 'approve' } });
    if (res.statusCode !== 200) throw new Error(`change order not decided: ${res.statusCode} ${res.body}`);
  };
  await decide(ctx.clientA, both.own.id);
  await decide(ctx.clientB, both.other.id);
  return both;
}

// Access expectations of the change order routes (decision 294; see tests/helpers/access-table.ts).
export default defineAccess([
  {
    method: 'GET',
    url: '/api/change-orders/project/:projectId',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  { method: 'POST', url: '/api/change-orders/project/:projectId', access: { staff: 'projects.write' }, body: DRAFT },
  { method: 'PATCH', url: '/api/change-orders/:id', access: { staff: 'projects.write' }, body: { title: 'Deeper piles' }, fixture: (ctx) => changeOrdersOfBoth(ctx, false) },
  { method: 'POST', url: '/api/change-orders/:id/send', access: { staff: 'projects.write' }, fixture: (ctx) => changeOrdersOfBoth(ctx, false) },
  { method: 'POST', url: '/api/change-orders/:id/withdraw', access: { staff: 'projects.write' }, fixture: (ctx) => changeOrdersOfBoth(ctx, false) },
  {
    method: 'POST',
    url: '/api/change-orders/:id/decision',
    access: { client: 'approvals.decide' },
    body: { decision: 'decline', comment: 'Not in this phase' },
    fixture: (ctx) => changeOrdersOfBoth(ctx, true),
  },
  { method: 'GET', url: '/api/change-orders/:id/certificate', access: { staff: 'projects.read', client: true }, fixture: decidedOfBoth },
]);
