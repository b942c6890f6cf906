import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';

/** What a listener receives: an event published by any process, or 'resync' after events may have been missed. */
type BusEvent = { kind: 'event'; payload: unknown } | { kind: 'resync' };
type BusListener = (event: BusEvent) => void;

export interface EventBus {
  /** Receives every event of the channel, from this process and all others on the same database. */
  subscribe(channel: string, listener: BusListener): () => void;
  /** Whether the dedicated listening connection is up (the stream falls back to polling otherwise). */
  readonly listening: boolean;
  /** Resolves true once events are being received (or false if the connection cannot be made now). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;
// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; events carry ids, never content.
const NOTIFY_PAYLOAD_MAX_BYTES = 7900;
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** The statement that publishes an event; run it inside the transaction that writes the data. */
export function notifySql(channel: string, payload: unknown): SQL {
  if (!CHANNEL.test(channel)) throw new Error(`Bad channel name: ${channel}`);
  const text = JSON.stringify(payload);
  if (Buffer.byteLength(text) > NOTIFY_PAYLOAD_MAX_BYTES) throw new Error('Event payload too large for NOTIFY');
  return sql`select pg_notify(${channel}, ${text})`;
}

/**
 * Events across server processes through PostgreSQL LISTEN/NOTIFY. Publishing happens with
 * pg_notify inside the writer's transaction (so an event exists only if its data was committed);
 * listening needs one dedicated connection per process, opened on the first subscription and
 * reopened with backoff if it drops. Listeners then get 'resync', since events may have been lost.
 */
export function createPgEventBus(clientConfig: pg.ClientConfig, log: FastifyBaseLogger): EventBus {
  const listeners = new Map<string, Set<BusListener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let listening = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;

  const emit = (channel: string, event: BusEvent) => {
    for (const listener of listeners.get(channel) ?? []) {
      try {
        listener(event);
      } catch (err) {
        log.error({ err, channel }, 'event listener failed');
      }
    }
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    const delay = Math.min(RECONNECT_MIN_MS * 2 ** failures, RECONNECT_MAX_MS);
    failures++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
    retryTimer.unref();
  };

  const connect = async (): Promise<void> => {
    if (closed || client || connecting) return connecting ?? undefined;
    connecting = (async () => {
      const c = new pg.Client({ ...clientConfig, application_name: 'portal-events' });
      const lost = (err?: Error) => {
        if (client !== c) return;
        client = null;
        listening = false;
        if (!closed) {
          log.warn({ err }, 'event listener connection lost; reconnecting');
          scheduleReconnect();
        }
        c.end().catch(() => undefined);
      };
      c.on('error', lost);
      c.on('end', () => lost());
      c.on('notification', (msg) => {
        let payload: unknown = null;
        try {
          payload = msg.payload ? JSON.parse(msg.payload) : null;
        } catch {
          log.warn({ channel: msg.channel }, 'ignored an event that is not JSON');
          return;
        }
        emit(msg.channel, { kind: 'event', payload });
      });
      try {
        await c.connect();
        client = c;
        for (const channel of listeners.keys()) await c.query(`LISTEN ${channel}`);
        const wasDown = failures > 0;
        listening = true;
        failures = 0;
        // After a gap, anything may have happened: tell listeners to read again.
        if (wasDown) for (const channel of listeners.keys()) emit(channel, { kind: 'resync' });
      } catch (err) {
        client = null;
        listening = false;
        c.end().catch(() => undefined);
        if (!closed) {
          log.warn({ err }, 'event listener could not connect; retrying');
          scheduleReconnect();
        }
      }
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  return {
    subscribe(channel, listener) {
      if (!CHANNEL.test(channel)) throw new Error(`Bad channel name: ${channel}`);
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        if (client && listening) client.query(`LISTEN ${channel}`).catch((err) => log.warn({ err }, 'LISTEN failed'));
      }
      set.add(listener);
      if (!client) void connect();
      return () => {
        set.delete(listener);
      };
    },
    get listening() {
      return listening;
    },
    async ready() {
      if (!listening) await connect();
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await connecting;
      const c = client;
      client = null;
      listening = false;
      listeners.clear();
      await c?.end().catch(() => undefined);
    },
  };
}
