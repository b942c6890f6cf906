import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How often, while the server closes, connections without an answer under way are closed. */
const REAP_INTERVAL_MS = 100;

/**
 * A stop (a deploy, Ctrl-C) must not wait on connections that carry no work. Fastify closes the
 * keep-alive connections that are idle when its close begins, and the server's close then waits
 * for every other connection, so two kinds would hold it open for their whole timeouts (Fastify's
 * 72 s keep-alive; nothing at all once the server stops checking): a connection whose request was
 * still being answered when the close began (idle right after its answer), and a connection opened
 * but never used (browsers open spare ones ahead of need). From the start of the close until the
 * server has closed, every connection that is not answering a request is closed; answers under way
 * finish. Upgraded sockets (Vite's HMR websocket in development) carry no answer and are closed too.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance) {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', (done) => {
    const reap = () => {
      // Node keeps the response being written on its socket; none means no answer under way.
      for (const socket of sockets) if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
    };
    reap();
    const timer = setInterval(reap, REAP_INTERVAL_MS);
    timer.unref();
    app.server.once('close', () => clearInterval(timer));
    done();
  });
}
