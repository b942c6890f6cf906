import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { apiErrorSchema } from '../../../common/errors.ts';
import type { SectionKey } from '../../../common/content/sections.ts';
import { okResponse } from '../../../common/schemas/ok-response.ts';
import {
  draftResponseSchema,
  publishResponseSchema,
  revisionListResponseSchema,
  revisionParamsSchema,
  revisionResponseSchema,
  saveDraftBodySchema,
  scheduleBodySchema,
  scheduleResponseSchema,
  sectionListResponseSchema,
  sectionParamsSchema,
  sectionResponseSchema,
  versionBodySchema,
} from '../../../common/schemas/site-content.ts';
import { auditOf } from '../audit/audit.ts';
import * as content from './site-content.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const writeErrors = { ...errors, 409: apiErrorSchema };
// Issue 24: owners, admins and editors edit the website (decision 272's 'content.write').
const config = { access: { staff: 'content.write' } } as const;
const tags = ['site-content'];

const editor = (request: FastifyRequest): content.Editor => ({
  audit: auditOf(request),
  id: request.user?._id ?? null,
  name: request.user?.name ?? 'system',
});
const sectionOf = (request: { params: { section: string } }) => request.params.section as SectionKey;

const siteContentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/site-content/sections',
    { config, schema: { tags, summary: 'Every section of the website with its state', response: { 200: sectionListResponseSchema, ...errors } } },
    async () => ({ success: true as const, sections: await content.listSections(app.db) }),
  );

  app.get(
    '/site-content/sections/:section',
    {
      config,
      schema: { tags, summary: "A section's draft, published document and schedule", params: sectionParamsSchema, response: { 200: sectionResponseSchema, ...errors } },
    },
    async (request) => ({ success: true as const, ...(await content.getSection(app.db, sectionOf(request))) }),
  );

  app.put(
    '/site-content/sections/:section/draft',
    {
      config,
      schema: {
        tags,
        summary: 'Save the draft (autosave), from the version edited; 409 if someone saved since',
        params: sectionParamsSchema,
        body: saveDraftBodySchema,
        response: { 200: draftResponseSchema, ...writeErrors },
      },
    },
    async (request) => ({ success: true as const, draft: await content.saveDraft(app, editor(request), sectionOf(request), request.body) }),
  );

  app.post(
    '/site-content/sections/:section/publish',
    {
      config,
      schema: { tags, summary: 'Publish the draft', params: sectionParamsSchema, body: versionBodySchema, response: { 200: publishResponseSchema, ...writeErrors } },
    },
    async (request) => ({
      success: true as const,
      revision: await content.publishDraft(app, editor(request), sectionOf(request), request.body.version),
    }),
  );

  app.put(
    '/site-content/sections/:section/schedule',
    {
      config,
      schema: {
        tags,
        summary: 'Publish the draft at a chosen time (replaces an earlier schedule)',
        params: sectionParamsSchema,
        body: scheduleBodySchema,
        response: { 200: scheduleResponseSchema, ...writeErrors },
      },
    },
    async (request) => ({ success: true as const, schedule: await content.scheduleDraft(app, editor(request), sectionOf(request), request.body) }),
  );

  app.delete(
    '/site-content/sections/:section/schedule',
    { config, schema: { tags, summary: 'Withdraw the scheduled publish', params: sectionParamsSchema, response: { 200: okResponse({}), ...errors } } },
    async (request) => {
      await content.cancelSchedule(app, editor(request), sectionOf(request));
      return { success: true as const };
    },
  );

  app.get(
    '/site-content/sections/:section/revisions',
    {
      config,
      schema: { tags, summary: 'Every published revision, newest first', params: sectionParamsSchema, response: { 200: revisionListResponseSchema, ...errors } },
    },
    async (request) => ({ success: true as const, revisions: await content.listRevisions(app.db, sectionOf(request)) }),
  );

  app.get(
    '/site-content/sections/:section/revisions/:id',
    {
      config,
      schema: { tags, summary: 'A revision and the one before it', params: revisionParamsSchema, response: { 200: revisionResponseSchema, ...errors } },
    },
    async (request) => ({ success: true as const, ...(await content.getRevision(app.db, sectionOf(request), request.params.id)) }),
  );

  app.post(
    '/site-content/sections/:section/revisions/:id/restore',
    {
      config,
      schema: {
        tags,
        summary: 'Make a revision the draft (a new version)',
        params: revisionParamsSchema,
        body: versionBodySchema,
        response: { 200: draftResponseSchema, ...writeErrors },
      },
    },
    async (request) => ({
      success: true as const,
      draft: await content.restoreRevision(app, editor(request), sectionOf(request), request.params.id, request.body.version),
    }),
  );
};

export default siteContentRoutes;
