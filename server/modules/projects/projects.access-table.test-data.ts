import { defineAccess } from '../../../tests/helpers/access-table.ts';
import { eachClient, projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';
import { createProjectVia } from '../../../tests/helpers/portal.ts';

// Access expectations of the projects routes (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'POST', url: '/api/projects', access: { staff: 'projects.assign' } },
  { method: 'GET', url: '/api/projects/:id/managers', access: { staff: 'projects.assign' } },
  { method: 'PUT', url: '/api/projects/:id/managers', access: { staff: 'projects.assign' }, body: { managerIds: [] } },
  {
    method: 'GET',
    url: '/api/projects/client/:clientId',
    access: { staff: 'projects.read', client: true },
    fixture: eachClient('clientId'),
  },
  {
    method: 'PUT',
    url: '/api/projects/:id/status',
    access: { staff: 'projects.write' },
    body: { status: 'in-progress' },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { id: a._id }, other: { id: b._id } };
    },
  },
  {
    method: 'PATCH',
    url: '/api/projects/:id',
    access: { staff: 'projects.write' },
    body: { description: 'Corrected description' },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { id: a._id }, other: { id: b._id } };
    },
  },
  ...(['archive', 'restore'] as const).map((action) => ({
    method: 'POST' as const,
    url: `/api/projects/:id/${action}`,
    access: { staff: 'projects.write' } as const,
    fixture: async (ctx: Parameters<typeof projectsOfBoth>[0]) => ({ own: { id: (await createProjectVia(ctx.t, ctx.admin, ctx.clientA.id))._id } }),
  })),
  {
    method: 'DELETE',
    url: '/api/projects/:id',
    access: { staff: 'projects.write' },
    fixture: async (ctx) => ({ own: { id: (await createProjectVia(ctx.t, ctx.admin, ctx.clientA.id))._id } }),
  },
]);
