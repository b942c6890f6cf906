import { defineAccess, type AccessActor, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';
import { multipart } from '../../../tests/helpers/portal.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';

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

/** A change order on each client's project with one PDF attached (and, with `send`, sent afterwards). */
async function attachedOfBoth(ctx: AccessFixtureContext, send: boolean) {
  const both = await changeOrdersOfBoth(ctx, false);
  const attach = async (id: string) => {
    const body = await multipart({}, [{ field: 'file', name: 'sketch.pdf', type: 'application/pdf', data: samplePdf('Pile layout') }]);
    const headers = { ...ctx.admin.headers, ...body.headers };
    const res = await ctx.t.app.inject({ method: 'POST', url: `/api/change-orders/${id}/attachments`, headers, remoteAddress: ctx.adminAddress, payload: body.payload });
    if (res.statusCode !== 201) throw new Error(`attachment not added: ${res.statusCode} ${res.body}`);
    if (send) await ctx.t.app.inject({ method: 'POST', url: `/api/change-orders/${id}/send`, headers: ctx.admin.headers, remoteAddress: ctx.adminAddress });
    return { id, attachmentId: res.json().changeOrder.attachments[0]._id as string };
  };
  return { own: await attach(both.own.id), other: await attach(both.other.id) };
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
  { method: 'DELETE', url: '/api/change-orders/:id', access: { staff: 'projects.write' }, fixture: (ctx) => attachedOfBoth(ctx, false) },
  // The change order is found before the body is read: a JSON body on an existing draft is 415 (an upload is multipart).
  { method: 'POST', url: '/api/change-orders/:id/attachments', access: { staff: 'projects.write' }, body: { file: 'x' }, ownStatus: 415, fixture: (ctx) => changeOrdersOfBoth(ctx, false) },
  { method: 'DELETE', url: '/api/change-orders/:id/attachments/:attachmentId', access: { staff: 'projects.write' }, fixture: (ctx) => attachedOfBoth(ctx, false) },
  { method: 'GET', url: '/api/change-orders/:id/attachments/:attachmentId/file', access: { staff: 'projects.read', client: true }, fixture: (ctx) => attachedOfBoth(ctx, true) },
]);
