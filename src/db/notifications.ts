import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/**
 * What a subscriber to a NOTIFY channel hears. `message` gets each payload after the writing
 * transaction committed. `lost` says notifications may have been missed (the listening
 * connection dropped): whatever the subscriber derived from them must be forgotten until
 * `ready` says the channel is heard again.
 */
export interface ChannelListener {
  message(payload: string): void;
  lost(): void;
  ready(): void;
}

export interface Notifications {
  /**
   * Starts hearing `channel`: resolves once it is heard (after `ready`), or rejects when the
   * first attempt to listen fails while later attempts go on. Returns the unsubscribe.
   */
  listen(channel: string, listener: ChannelListener): Promise<() => void>;
  close(): Promise<void>;
}

/** PGlite runs in this process: a NOTIFY reaches the listener before the writing statement returns. */
export function pgliteNotifications(pglite: PGlite): Notifications {
  const stops = new Set<() => Promise<void>>();
  return {
    async listen(channel, listener) {
      const stop = await pglite.listen(channel, (payload) => listener.message(payload));
      stops.add(stop);
      listener.ready();
      return () => {
        stops.delete(stop);
        void stop().catch(() => undefined);
      };
    },
    async close() {
      stops.clear();
    },
  };
}

const RECONNECT_MS = [100, 500, 1_000, 5_000];

/**
 * PostgreSQL: one dedicated connection listens for the process, reconnecting with backoff (a
 * drop is reported as `lost`, the new LISTEN as `ready`). Every pooled connection listens to
 * `channels` as well, from its first statement on, so a statement this process runs delivers
 * its own notifications on its own connection before its result: the process reads its own
 * writes at once, and other processes' within the notification's delay.
 *
 * Each notification is delivered once: a pooled connection delivers those its own backend sent
 * (NOTIFY names the sending backend's pid), the dedicated one all others. A pooled connection
 * lost mid-statement may have committed a write whose notification it never delivered, so its
 * loss is reported as `lost` and, the feed still heard, `ready` at once: subscribers forget all.
 */
export function postgresNotifications(o: {
  connectionString: string;
  types: pg.CustomTypesConfig;
  channels: readonly string[];
  onError: (err: Error) => void;
}): Notifications & {
  /** The pool's onConnect hook: the connection listens before its first statement. */
  onPoolConnect(client: pg.ClientBase): Promise<void>;
} {
  const listeners = new Map<string, Set<ChannelListener>>(o.channels.map((c) => [c, new Set()]));
  const deliver = (msg: pg.Notification) => {
    for (const l of listeners.get(msg.channel) ?? []) l.message(msg.payload ?? "");
  };
  /** Backend pids of the pool's connections: each delivers its own notifications. */
  const pooled = new Set<number>();
  const each = (f: (l: ChannelListener) => void) => {
    for (const set of listeners.values()) for (const l of set) f(l);
  };
  const listenAll = `${o.channels.map((c) => `LISTEN ${pg.escapeIdentifier(c)}`).join("; ")};`;

  let closed = false;
  let client: pg.Client | undefined;
  let attempt = 0;
  let connecting: Promise<void> | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: o.connectionString, types: o.types, application_name: "x402-lookout-listen", keepAlive: true });
    c.on("notification", (msg) => {
      if (!pooled.has(msg.processId)) deliver(msg);
    });
    c.on("error", () => undefined); // 'end' follows, and reconnects
    try {
      await c.connect();
      await c.query(listenAll);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) return void (await c.end().catch(() => undefined));
    client = c;
    attempt = 0;
    c.once("end", () => {
      client = undefined;
      if (closed) return;
      each((l) => l.lost());
      void start();
    });
    each((l) => l.ready());
  };

  const start = (): Promise<void> =>
    (connecting ??= (async () => {
      while (!closed && !client) {
        try {
          await connect();
        } catch (err) {
          o.onError(err as Error);
          await new Promise((r) => setTimeout(r, RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]).unref());
        }
      }
    })().finally(() => (connecting = undefined)));

  return {
    async onPoolConnect(pooledClient) {
      const pid = (pooledClient as pg.ClientBase & { processID: number }).processID; // set by pg, untyped in @types/pg
      pooled.add(pid);
      pooledClient.on("notification", (msg) => {
        if (msg.processId === pid) deliver(msg);
      });
      pooledClient.on("error", () => {
        each((l) => l.lost());
        if (client) each((l) => l.ready());
      });
      pooledClient.on("end", () => pooled.delete(pid));
      await pooledClient.query(listenAll);
    },
    async listen(channel, listener) {
      const set = listeners.get(channel);
      if (!set) throw new Error(`channel ${channel} is not one the database handle listens to`);
      set.add(listener);
      const unsubscribe = () => void set.delete(listener);
      if (client) listener.ready();
      else {
        if (!connecting) {
          // The first attempt's failure is its callers' to see; the retries go on behind it.
          connecting = connect().finally(() => (connecting = undefined));
          connecting.catch(() => void start());
        }
        // Whoever started the attempt (this call, an earlier one or a reconnect), this one resolves once it is heard.
        await connecting;
      }
      return unsubscribe;
    },
    async close() {
      closed = true;
      for (const set of listeners.values()) set.clear();
      await client?.end().catch(() => undefined);
    },
  };
}
