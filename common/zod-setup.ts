import { z } from 'zod';

/**
 * Decision 117: zod never generates code at run time. Its object schemas otherwise probe
 * `new Function('')` when they are created, which a Content-Security-Policy without 'unsafe-eval'
 * refuses and reports as a violation on every page that builds a schema. Imported first by the
 * browser's root module (app/root.tsx) and by the server start (server/start.ts), before any module
 * that creates a schema, because the probe runs when a schema is built.
 */
z.config({ jitless: true });
