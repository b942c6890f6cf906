import { z } from 'zod';

/**
 * Decision 117: zod never generates code at run time. Its object schemas otherwise probe
 * `new Function('')` when they are created, which a Content-Security-Policy without 'unsafe-eval'
 * refuses and reports as a violation on every page that builds a schema. Imported first by every
 * module that creates a schema (common/schemas/*, common/errors.ts, common/content/*) and by the
 * server start (server/start.ts), because the probe runs when a schema is built. Not by the browser's
 * root module any more (decision 144): the public form pages load no zod at all.
 */
z.config({ jitless: true });
