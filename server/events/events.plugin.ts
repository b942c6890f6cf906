import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createPgEventBus, type EventBus } from './pg-events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Events shared by every server process on the same database (LISTEN/NOTIFY). */
    events: EventBus;
  }
}

async function eventsPlugin(app: FastifyInstance) {
  // The listening connection uses the pool's own settings but lives outside it: a pooled client
  // would be handed to queries and lose its LISTEN.
  const { max: _max, idleTimeoutMillis: _idle, ...clientConfig } = app.pool.options;
  const bus = createPgEventBus(clientConfig, app.log);
  app.decorate('events', bus);
  app.addHook('onClose', async () => {
    await bus.close();
  });
}

export default fp(eventsPlugin, { name: 'events' });
