import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { apiErrorSchema } from '../../common/errors.ts';
import { deleteBodySchema, deleteResponseSchema, type DeleteOutcome } from '../../common/schemas/archive.ts';
import type { Access } from '../plugins/access.ts';

type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/** The refusals every record route of the portal can answer with. */
export const recordRouteErrors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

interface ArchiveRoutes {
  /** The record's path, ending in its `:id` ('/projects/:id'): archive and restore hang below it. */
  path: `${string}/:id`;
  tag: string;
  /** Who may call the three routes: stated by the domain, as every route states its access. */
  access: Access;
  params: z.ZodType<{ id: string }>;
  /** The answer of archive and restore (the record as it is now); its schema checks what setArchived gives. */
  response: z.ZodType<{ success: true }>;
  summaries: { archive: string; restore: string; delete: string };
  setArchived: (request: FastifyRequest, id: string, archived: boolean) => Promise<object>;
  remove: (request: FastifyRequest, id: string, confirmName: string | undefined) => Promise<DeleteOutcome>;
}

/**
 * POST <path>/archive, POST <path>/restore and DELETE <path> of a record kind (issue 22): clients
 * and projects archive, restore and delete the same way, so their routes are registered once here.
 */
export function registerArchiveRoutes(app: RouteApp, routes: ArchiveRoutes): void {
  const { path, tag, access, params, response, summaries } = routes;
  for (const [action, archived] of [['archive', true], ['restore', false]] as const) {
    app.post(
      `${path}/${action}`,
      {
        config: { access },
        schema: { tags: [tag], summary: summaries[action], params, response: { 200: response, ...recordRouteErrors } },
      },
      async (request) => ({ success: true as const, ...(await routes.setArchived(request, request.params.id, archived)) }),
    );
  }

  app.delete(
    path,
    {
      config: { access },
      schema: {
        tags: [tag],
        summary: summaries.delete,
        params,
        body: deleteBodySchema,
        response: { 200: deleteResponseSchema, 409: apiErrorSchema, ...recordRouteErrors },
      },
    },
    async (request) => ({ success: true as const, deleted: await routes.remove(request, request.params.id, request.body.confirmName) }),
  );
}
