import { defineAccess, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';
import { multipart } from '../../../tests/helpers/portal.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';

/** A document shown to the client, with one PDF version, on a project; answers its ids. */
async function documentOn(ctx: AccessFixtureContext, projectId: string) {
  const body = await multipart({ title: 'Site plan', category: 'drawing', visibleToClient: 'true' }, [
    { field: 'file', name: 'plan.pdf', type: 'application/pdf', data: samplePdf() },
  ]);
  const res = await ctx.t.app.inject({ method: 'POST', url: `/api/projects/${projectId}/documents`, headers: { ...ctx.admin.headers, ...body.headers }, payload: body.payload });
  if (res.statusCode !== 201) throw new Error(`document not created: ${res.statusCode} ${res.body}`);
  const document = res.json().document as { _id: string; current: { _id: string } };
  return { projectId, documentId: document._id, versionId: document.current._id };
}

async function documentsOfBoth(ctx: AccessFixtureContext) {
  const { a, b } = await projectsOfBoth(ctx);
  return { own: await documentOn(ctx, a._id), other: await documentOn(ctx, b._id) };
}

// Access expectations of the project documents routes (see tests/helpers/access-table.ts).
export default defineAccess([
  {
    method: 'GET',
    url: '/api/projects/:projectId/documents',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  // The project is found before the body is read: a JSON body on an existing project is 415 (an upload is multipart).
  { method: 'POST', url: '/api/projects/:projectId/documents', access: { staff: 'projects.write' }, body: { title: 'x' }, ownStatus: 415, fixture: documentsOfBoth },
  {
    method: 'POST',
    url: '/api/projects/:projectId/documents/:documentId/versions',
    access: { staff: 'projects.write' },
    body: { label: 'x' },
    ownStatus: 415,
    fixture: documentsOfBoth,
  },
  { method: 'PATCH', url: '/api/projects/:projectId/documents/:documentId', access: { staff: 'projects.write' }, body: { title: 'Renamed plan' }, fixture: documentsOfBoth },
  {
    method: 'GET',
    url: '/api/projects/:projectId/documents/:documentId/versions/:versionId/file',
    access: { staff: 'projects.read', client: true },
    fixture: documentsOfBoth,
  },
]);
