import { defineAccess } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth, timelineOn } from '../../../tests/helpers/access-fixtures.ts';

// Access expectations of the timelines routes (see tests/helpers/access-table.ts).
export default defineAccess([
  {
    method: 'GET',
    url: '/api/gantt-charts/project/:projectId',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  { method: 'POST', url: '/api/gantt-charts', access: { staff: 'projects.write' } },
  {
    method: 'PUT',
    url: '/api/gantt-charts/:id',
    access: { staff: 'projects.write' },
    body: { projectTitle: 'Plan', tasks: [] },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { id: await timelineOn(ctx, a._id) }, other: { id: await timelineOn(ctx, b._id) } };
    },
  },
]);
