import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { AppConfig } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { createOffsetClock, systemClock, type Clock } from './clock.ts';
import { createStorage } from './storage/create-storage.ts';
import type { FileStorage } from './storage/storage.ts';
import { closeUnusedConnectionsOnClose } from './lib/close-unused-connections.ts';
import type { WebPages } from './lib/web-pages.ts';
import accessPlugin from './plugins/access.ts';
import errorHandlerPlugin from './plugins/error-handler.ts';
import securityHeadersPlugin, { applySecurityHeaders } from './plugins/security-headers.ts';
import storableInputPlugin from './plugins/storable-input.ts';
import { notFound } from '../common/errors.ts';
import cspReportRoutes from './modules/csp-report/csp-report.routes.ts';
import { requestLog } from './logging.ts';
import metricsPlugin from './plugins/metrics.ts';
import setupRoutes from './modules/setup/setup.routes.ts';
import healthRoutes from './modules/health/health.routes.ts';
import companyProfileRoutes from './modules/company-profile/company-profile.routes.ts';
import authRoutes from './modules/auth/auth.routes.ts';
import testHookRoutes, { testHooksEnabled } from './modules/auth/test-hooks.routes.ts';
import clientsRoutes from './modules/clients/clients.routes.ts';
import organisationRoutes from './modules/organisations/organisation.routes.ts';
import auditRoutes from './modules/audit/audit.routes.ts';
import staffRoutes from './modules/staff/staff.routes.ts';
import projectsRoutes from './modules/projects/projects.routes.ts';
import reportsRoutes from './modules/reports/reports.routes.ts';
import changeOrdersRoutes from './modules/change-orders/change-orders.routes.ts';
import invoicesRoutes from './modules/invoices/invoices.routes.ts';
import paystackRoutes from './modules/invoices/paystack.routes.ts';
import timelinesRoutes from './modules/timelines/timelines.routes.ts';
import approvalsRoutes from './modules/approvals/approvals.routes.ts';
import formTokenRoutes from './plugins/form-token.ts';
import vendorsRoutes from './modules/vendors/vendors.routes.ts';
import contactRoutes from './modules/contact/contact.routes.ts';
import newsletterRoutes from './modules/newsletter/newsletter.routes.ts';
import newsletterFormRoutes from './modules/newsletter/newsletter-form.routes.ts';
import siteContentPreviewRoutes from './modules/site-content/site-content-preview.routes.ts';
import submissionsRoutes from './modules/submissions/submissions.routes.ts';
import mailRoutes from './modules/mail/mail.routes.ts';
import eventsPlugin from './events/events.plugin.ts';
import articlesPlugin from './modules/articles/articles.plugin.ts';
import { closeMailTransport } from './mail/mailer.ts';
import messagesRoutes from './modules/messages/messages.routes.ts';
import filesRoutes from './modules/files/files.routes.ts';
import blogRoutes from './modules/blog/blog.routes.ts';
import mediaRoutes from './modules/media/media.routes.ts';
import chatRoutes from './modules/chat/chat.routes.ts';
import searchRoutes from './modules/search/search.routes.ts';
import siteContentPlugin from './modules/site-content/site-content.plugin.ts';
import siteContentRoutes from './modules/site-content/site-content.routes.ts';
import documentsRoutes from './modules/documents/documents.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    db: Db;
    pool: pg.Pool;
    clock: Clock;
    storage: FileStorage;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  database: Database;
  /** A pino logger instance, pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  clock?: Clock;
  storage?: FileStorage;
  /**
   * Serve the web pages too: true from the React Router build (needs `npm run build`), 'vite'
   * from the sources through Vite's dev server (`npm run dev` only). API tests leave it off.
   */
  web?: boolean | 'vite';
}

// The whole upload limits per file live with their domains; this caps any single multipart part.
const MULTIPART_FILE_MAX_BYTES = 50 * 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function isLoggerInstance(value: unknown): value is FastifyBaseLogger {
  return typeof value === 'object' && value !== null && typeof (value as FastifyBaseLogger).child === 'function';
}

/** Builds the whole application without listening, so tests can call it with inject(). */
export async function buildApp(options: BuildAppOptions) {
  const { config, database } = options;
  const app = Fastify({
    ...(isLoggerInstance(options.logger)
      ? { loggerInstance: options.logger }
      : { logger: options.logger ?? { level: config.LOG_LEVEL } }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    // One line per request instead, without the query (server/logging.ts, decision 164).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Errors Fastify meets before routing (a malformed percent-escape such as GET /api/%ZZ, an
    // over-long parameter): the one error shape, the security headers, and the path never echoed.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      request.log.info({ code: error.code, status }, 'malformed request');
      applySecurityHeaders(reply, config.isProduction);
      reply.header('Cache-Control', 'no-store');
      return reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ success: false, code: 'BAD_REQUEST', message: 'The address of the request is not valid' }));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('pool', database.pool);
  // A browser-test process's clock can be moved forward by a test hook (POST /api/test/clock); every
  // other process runs on the system clock.
  app.decorate('clock', options.clock ?? (testHooksEnabled(config) ? createOffsetClock() : systemClock));
  // Filled in by the web plugin below when it serves the pages (server/lib/web-pages.ts).
  app.decorate('webPages', { render: null } as WebPages);
  app.decorate('storage', options.storage ?? createStorage(config));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });

  // A stop does not wait on connections that carry no work (server/lib/close-unused-connections.ts).
  closeUnusedConnectionsOnClose(app);

  // Root-level, so it runs after the modules' own onClose hooks (newsletter deliveries under way).
  app.addHook('onClose', async () => closeMailTransport(app));

  // Outside plugins first, then ours, then the API modules, then the web pages.
  // Answers over 1 KB travel compressed (metered networks); static files come precompressed.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { fileSize: MULTIPART_FILE_MAX_BYTES, files: 25, fields: 60, fieldSize: 100_000, parts: 100 },
  });
  await app.register(errorHandlerPlugin);
  await app.register(accessPlugin);
  await app.register(storableInputPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(eventsPlugin);
  await app.register(metricsPlugin);
  await app.register(requestLog);
  await app.register(articlesPlugin);
  await app.register(siteContentPlugin);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Company website and client portal API', version: '1.0.0' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'sid' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(companyProfileRoutes);
      await api.register(clientsRoutes);
      await api.register(organisationRoutes);
      await api.register(projectsRoutes);
      await api.register(reportsRoutes);
      await api.register(changeOrdersRoutes);
      await api.register(invoicesRoutes);
      await api.register(paystackRoutes);
      await api.register(timelinesRoutes);
      await api.register(approvalsRoutes);
      await api.register(formTokenRoutes);
      await api.register(vendorsRoutes);
      await api.register(contactRoutes);
      await api.register(newsletterRoutes);
      await api.register(submissionsRoutes);
      await api.register(mailRoutes);
      await api.register(messagesRoutes);
      await api.register(filesRoutes);
      await api.register(blogRoutes);
      await api.register(mediaRoutes);
      await api.register(chatRoutes);
      await api.register(searchRoutes);
      await api.register(siteContentRoutes);
      await api.register(documentsRoutes);
      await api.register(authRoutes);
      await api.register(setupRoutes);
      await api.register(cspReportRoutes);
      await api.register(auditRoutes);
      await api.register(staffRoutes);
      // Only in a test process started with E2E_TEST_HOOKS=1 (browser tests); never in production.
      if (testHooksEnabled(config)) await api.register(testHookRoutes);
    },
    { prefix: '/api' },
  );
  // The newsletter box's post without JavaScript, answered with a page (decision 176).
  await app.register(newsletterFormRoutes);
  // Decision 289: a section's draft shown on its real page, for staff who edit the website.
  await app.register(siteContentPreviewRoutes);

  app.setNotFoundHandler(async (request) => {
    throw notFound(`No route ${request.method} ${request.url.split('?')[0]}`);
  });

  if (options.web === 'vite') {
    // Imported only here, so no other process ever loads Vite.
    const { default: webDevPlugin } = await import('./plugins/web-dev.ts');
    await app.register(webDevPlugin);
  } else if (options.web) {
    const { default: webPlugin } = await import('./plugins/web.ts');
    await app.register(webPlugin);
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
