import { defineAccess, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { createUser } from '../../../tests/helpers/test-app.ts';

// A colleague in client A's organisation: client A (its admin) reaches it, client B answers 404.
const colleagueOfA = async (ctx: AccessFixtureContext) => ({
  own: { id: (await createUser(ctx.t, { role: 'client', organisationId: ctx.clientA.id, memberRole: 'member' })).id },
});

// Access expectations of the organisation members routes (see tests/helpers/access-table.ts; decision 279).
export default defineAccess([
  { method: 'GET', url: '/api/organisation/members', access: { client: 'members.manage' } },
  { method: 'POST', url: '/api/organisation/members', access: { client: 'members.manage' }, body: { name: '', email: 'x' } },
  { method: 'PATCH', url: '/api/organisation/members/:id', access: { client: 'members.manage' }, body: { memberRole: 'approver' }, fixture: colleagueOfA },
  { method: 'DELETE', url: '/api/organisation/members/:id', access: { client: 'members.manage' }, fixture: colleagueOfA },
]);
