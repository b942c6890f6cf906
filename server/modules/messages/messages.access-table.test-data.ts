import { defineAccess, type AccessActor, type AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { projectsOfBoth } from '../../../tests/helpers/access-fixtures.ts';

// A 1x1 PNG: a real image, so the upload route reaches its own checks.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A message by client A and one by client B, each in its own project's thread, for the author-only routes. */
async function authorMessages(ctx: AccessFixtureContext): Promise<{ own: { id: string }; other: { id: string } }> {
  const { a, b } = await projectsOfBoth(ctx);
  const send = async (author: AccessActor, projectId: string) => {
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: author.headers,
      payload: { subject: 'Subject: Typo', text: 'Sent with a typo', projectId },
    });
    if (res.statusCode !== 201) throw new Error(`message not sent: ${res.statusCode} ${res.body}`);
    return res.json().message._id as string;
  };
  return { own: { id: await send(ctx.clientA, a._id) }, other: { id: await send(ctx.clientB, b._id) } };
}

// Access expectations of the messages routes (see tests/helpers/access-table.ts).
export default defineAccess([
  {
    method: 'POST',
    url: '/api/messages/upload',
    access: { staff: 'projects.write', client: true },
    body: { file: PNG_BASE64, type: 'image', name: 'pixel.png', mimeType: 'image/png' },
  },
  {
    method: 'POST',
    url: '/api/messages',
    access: { staff: 'projects.write', client: true },
    body: { subject: 'Subject: Access', text: 'Checking access', projectId: '00000000-0000-4000-8000-000000000000' },
    // The project travels in the body: client A may write in its own thread, client B gets 404 as for a missing one.
    fixture: async (ctx) => {
      const { a } = await projectsOfBoth(ctx);
      return { own: {}, body: { subject: 'Subject: Access', text: 'Checking access', projectId: a._id } };
    },
  },
  {
    method: 'GET',
    // Paging (`?before=&limit=`) reaches the same ownership check: messages-paging.test.ts proves client B's 404 with a cursor too.
    url: '/api/messages/project/:projectId',
    access: { staff: 'projects.read', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  {
    method: 'PUT',
    url: '/api/messages/:id/read',
    access: { staff: 'projects.write', client: true },
    // Only the receiver marks a message read: staff's message to client A is client A's to mark,
    // client B gets 404 as for a missing message, and staff, its sender, get 403.
    adminOwnStatus: 403,
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      const send = async (projectId: string) => {
        const res = await ctx.t.app.inject({
          method: 'POST',
          url: '/api/messages',
          headers: ctx.admin.headers,
          remoteAddress: ctx.adminAddress,
          payload: { subject: 'Subject: Receipt', text: 'Please confirm', projectId },
        });
        if (res.statusCode !== 201) throw new Error(`message not sent: ${res.statusCode} ${res.body}`);
        return res.json().message._id as string;
      };
      return { own: { id: await send(a._id) }, other: { id: await send(b._id) } };
    },
  },
  // The author's corrections: client A edits and removes its own message; client B gets 404 as for
  // a missing one; staff see the message but are not its author, so 403.
  {
    method: 'PATCH',
    url: '/api/messages/:id',
    access: { staff: 'projects.write', client: true },
    body: { text: 'Corrected text' },
    adminOwnStatus: 403,
    fixture: authorMessages,
  },
  {
    method: 'DELETE',
    url: '/api/messages/:id',
    access: { staff: 'projects.write', client: true },
    adminOwnStatus: 403,
    fixture: authorMessages,
  },
  // Earlier versions are for staff (decision 259): every client, the author included, gets 403.
  { method: 'GET', url: '/api/messages/:id/versions', access: { staff: 'projects.read' }, fixture: authorMessages },
  {
    method: 'PUT',
    url: '/api/messages/project/:projectId/read',
    access: { staff: 'projects.write', client: true },
    fixture: async (ctx) => {
      const { a, b } = await projectsOfBoth(ctx);
      return { own: { projectId: a._id }, other: { projectId: b._id } };
    },
  },
  { method: 'GET', url: '/api/messages/unread', access: { staff: 'projects.read', client: true } },
  {
    method: 'GET',
    url: '/api/messages/stream',
    access: { staff: 'projects.read', client: true },
    noCalls:
      "an event stream stays open, which inject() cannot wait for; over real HTTP, messages-live.test.ts proves the 401 and the per-client filter of messages, and server/events/portal-live.test.ts the audience of every other change (its AUDIENCE table: staff all, a client its own projects only)",
  },
]);
