import { defineAccess } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth, reportOn } from '../../../tests/helpers/access-fixtures.ts';
import type { AccessFixtureContext } from '../../../tests/helpers/access-table.ts';

async function reportsOfBoth(ctx: AccessFixtureContext) {
  const { a, b } = await projectsOfBoth(ctx);
  const ra = await reportOn(ctx, a);
  const rb = await reportOn(ctx, b);
  return { own: { id: ra.id, imageId: ra.imageId }, other: { id: rb.id, imageId: rb.imageId } };
}

// Access expectations of the reports routes (see tests/helpers/access-table.ts).
export default defineAccess([
  { method: 'POST', url: '/api/reports', access: { staff: 'projects.write' } },
  // The signed-in user's own setting: no path parameter, nothing of anyone else to reach.
  { method: 'GET', url: '/api/reports/mail-setting', access: 'authenticated' },
  { method: 'PUT', url: '/api/reports/mail-setting', access: 'authenticated', body: { reportMail: true } },
  {
    method: 'GET',
    url: '/api/reports/project/:projectId',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  // The report is found before the body is read: a JSON body on an existing report is 415 (a correction is multipart).
  { method: 'PATCH', url: '/api/reports/:id', access: { staff: 'projects.write' }, body: { progress: 'x' }, ownStatus: 415, fixture: reportsOfBoth },
  { method: 'GET', url: '/api/reports/:id/versions', access: { staff: 'projects.read' }, fixture: reportsOfBoth },
  { method: 'GET', url: '/api/reports/:id/pdf', access: { staff: 'projects.read', client: true }, fixture: reportsOfBoth },
  { method: 'GET', url: '/api/reports/:id/images/:imageId', access: { staff: 'projects.read', client: true }, fixture: reportsOfBoth },
  { method: 'GET', url: '/api/reports/:id/images/:imageId/thumbnail', access: { staff: 'projects.read', client: true }, fixture: reportsOfBoth },
]);
