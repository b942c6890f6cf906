import { defineAccess, type AccessActor, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePng } from '../../../tests/helpers/sample-files.ts';

/** A client's attachment, uploaded and sent in its own project's thread. */
async function sentAttachment(ctx: AccessFixtureContext, who: AccessActor, projectId: string): Promise<string> {
  const { payload, headers } = multipartBody({}, { filename: 'site.png', contentType: 'image/png', data: await samplePng() });
  const up = await ctx.t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...who.headers, ...headers }, payload });
  if (up.statusCode !== 201) throw new Error(`upload failed: ${up.statusCode} ${up.body}`);
  const file = up.json().file;
  const sent = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/messages',
    headers: who.headers,
    payload: { text: 'With attachment', projectId, attachments: [file] },
  });
  if (sent.statusCode !== 201) throw new Error(`message failed: ${sent.statusCode} ${sent.body}`);
  return file.publicId;
}

// Access expectations of the files routes (see tests/helpers/access-table.ts).
export default defineAccess([
  {
    method: 'GET',
    url: '/api/files/:id',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { id: await sentAttachment(ctx, ctx.clientA, a._id) }, other: { id: await sentAttachment(ctx, ctx.clientB, b._id) } };
    },
  },
]);
