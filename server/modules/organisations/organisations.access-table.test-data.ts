import { defineAccess, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { createUser } from '../../../tests/helpers/test-app.ts';

/** A colleague in client A's organisation: client A (its admin) and staff reach it, client B answers 404. */
const colleagueOfA = async (ctx: AccessFixtureContext) => (await createUser(ctx.t, { role: 'client', organisationId: ctx.clientA.id, memberRole: 'member' })).id;
const ownColleague = async (ctx: AccessFixtureContext) => ({ own: { memberId: await colleagueOfA(ctx) } });
const clientsColleague = async (ctx: AccessFixtureContext) => ({ own: { id: ctx.clientA.id, memberId: await colleagueOfA(ctx) } });
const invite = { name: 'Access Check', email: 'access-check@example.test', memberRole: 'member' };

// Access expectations of the organisation members routes (see tests/helpers/access-table.ts; decision 279).
export default defineAccess([
  { method: 'GET', url: '/api/organisation/members', access: { client: 'members.manage' } },
  { method: 'POST', url: '/api/organisation/members', access: { client: 'members.manage' }, body: { name: '', email: 'x' } },
  { method: 'PATCH', url: '/api/organisation/members/:memberId', access: { client: 'members.manage' }, body: { memberRole: 'approver' }, fixture: ownColleague },
  { method: 'DELETE', url: '/api/organisation/members/:memberId', access: { client: 'members.manage' }, fixture: ownColleague },
  { method: 'GET', url: '/api/users/clients/:id/members', access: { staff: 'clients.read' }, fixture: async (ctx) => ({ own: { id: ctx.clientA.id } }) },
  // Random ids: the client is missing (404) before anything is stored.
  { method: 'POST', url: '/api/users/clients/:id/members', access: { staff: 'clients.write' }, body: invite },
  { method: 'PATCH', url: '/api/users/clients/:id/members/:memberId', access: { staff: 'clients.write' }, body: { memberRole: 'approver' }, fixture: clientsColleague },
  { method: 'DELETE', url: '/api/users/clients/:id/members/:memberId', access: { staff: 'clients.write' }, fixture: clientsColleague },
]);
