import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/errors.ts';
import { meResponseSchema } from '../../common/schemas/auth.ts';
import { messageListResponseSchema, messageResponseSchema } from '../../common/schemas/messages.ts';
import { projectListResponseSchema } from '../../common/schemas/projects.ts';
import { fastSerializerCompiler } from './fast-serializer.ts';

const compile = (schema: unknown) => {
  const args = { schema, method: 'GET', url: '/x', httpStatus: '200' };
  return {
    zod: (serializerCompiler as (a: typeof args) => (d: unknown) => string)(args),
    fast: fastSerializerCompiler(args),
  };
};

const message = (i: number) => ({
  _id: `3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a${String(i).padStart(2, '0')}`,
  subject: i % 2 ? '' : 'Quote "roof" \\ beams',
  text: `Line one\nline two \u2028 é ✓ </script> ${i}`,
  senderId: { _id: 'a1', name: 'Ada Obi' },
  sender: { _id: 'a1', name: 'Ada Obi', role: i % 2 ? 'client' : 'admin', organisation: i % 2 ? null : 'The company' },
  receiverId: i % 2 ? { _id: null, name: 'The company' } : { _id: 'c1', name: 'Chidi' },
  projectId: 'p1',
  fromStaff: i % 2 === 0,
  isRead: i % 3 === 0,
  readAt: i % 3 === 0 ? '2026-11-22T09:00:00.123Z' : null,
  readBy: i % 3 === 0 && i % 2 === 0 ? [{ _id: 'c1', name: 'Chidi', readAt: '2026-11-22T09:00:00.123Z' }] : [],
  createdAt: '2026-11-22T08:00:00.000Z',
  editedAt: i % 5 === 0 ? '2026-11-22T08:05:00.000Z' : null,
  deletedAt: null,
  attachments:
    i % 4
      ? []
      : [{ url: '/api/files/x', publicId: 'x', type: 'image', name: 'site.png', mimeType: 'image/png', size: 1234 }],
});

describe('fast response serialiser', () => {
  it('writes exactly the bytes of the zod serialiser for the hot answers', () => {
    const cases: [unknown, unknown][] = [
      [
        messageListResponseSchema,
        { success: true, messages: Array.from({ length: 12 }, (_, i) => message(i)), hasMore: true, olderUnread: 4 },
      ],
      [messageListResponseSchema, { success: true, messages: [], hasMore: false, olderUnread: 0 }],
      [messageResponseSchema, { success: true, message: message(4) }],
      [meResponseSchema, { success: true, user: { _id: 'u1', name: 'Ada "A" Obi', role: 'client', staffRole: null, permissions: [] } }],
      [meResponseSchema, { success: true, user: { _id: 'u2', name: 'Bola', role: 'admin', staffRole: 'support', permissions: ['support.answer', 'submissions.read'] } }],
      [apiErrorSchema, { success: false, code: 'NOT_FOUND', message: 'Project not found' }],
      [
        apiErrorSchema,
        { success: false, code: 'VALIDATION_FAILED', message: 'Bad', details: [{ path: ['a'], message: 'x' }] },
      ],
    ];
    for (const [schema, data] of cases) {
      const { zod, fast } = compile(schema);
      expect(fast(data)).toBe(zod(data));
    }
  });

  it('writes a project list as the zod serialiser does, the optional staff-only budget last in its object', () => {
    const data = {
      success: true,
      projects: [
        {
          _id: 'p1',
          name: 'Bridge',
          code: 'BR-1',
          description: '',
          startDate: null,
          endDate: '2027-01-31',
          budget: 1500000.5,
          status: 'in-progress',
          clientId: { _id: 'c1', name: 'Chidi' },
          createdAt: '2026-11-22T08:00:00.000Z',
          archivedAt: null,
        },
        {
          _id: 'p2',
          name: 'Depot',
          code: 'DP-2',
          description: 'Warehouse',
          startDate: '2026-01-01',
          endDate: null,
          status: 'completed',
          clientId: { _id: 'c1', name: 'Chidi' },
          createdAt: '2026-11-21T08:00:00.000Z',
          archivedAt: '2026-11-22T10:00:00.000Z',
        },
      ],
      pagination: { page: 1, pageSize: 20, total: 2, hasMore: false },
      cursors: { next: 'bmV4dA', previous: null },
    };
    const { zod, fast } = compile(projectListResponseSchema);
    expect(JSON.parse(fast(data))).toEqual(JSON.parse(zod(data)));
    expect(Object.keys(JSON.parse(fast(data)).projects[0]).at(-1)).toBe('budget');
  });

  it('leaves out properties the schema does not name', () => {
    const { fast } = compile(meResponseSchema);
    const out = JSON.parse(
      fast({
        success: true,
        user: { _id: 'u1', name: 'Ada', role: 'admin', staffRole: 'owner', permissions: ['audit.read'], email: 'secret@example.test', mfaPending: false },
        token: 'x',
      }),
    );
    expect(out).toEqual({ success: true, user: { _id: 'u1', name: 'Ada', role: 'admin', staffRole: 'owner', permissions: ['audit.read'] } });
  });
});
