import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface TcpProxy {
  host: string;
  port: number;
  /** Whether connections are being refused (the target looks down). */
  readonly isDown: boolean;
  /**
   * Goes down the moment a client sends bytes containing `marker` (e.g. a table name in a SQL
   * statement): that chunk is never forwarded, every open connection is reset, and new ones are
   * dropped until up(). Resolves when it went down.
   */
  downOn(marker: string): Promise<void>;
  /** Goes down now. */
  down(): void;
  /** Accepts and forwards connections again. */
  up(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on a loopback port in front of a real server (here PostgreSQL), which a test can
 * take down and bring back: an outage as the driver sees one, reset sockets and refused
 * connections, not an emulation.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let isDown = false;
  let trip: { marker: string; resolve: () => void } | undefined;

  const down = () => {
    isDown = true;
    for (const s of open) s.destroy();
    open.clear();
  };

  const server = createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = connect(target.port, target.host);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("data", (chunk: Buffer) => {
      if (trip && chunk.includes(trip.marker)) {
        const { resolve } = trip;
        trip = undefined;
        down();
        return resolve();
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    host: "127.0.0.1",
    port,
    get isDown() {
      return isDown;
    },
    downOn: (marker) => new Promise<void>((resolve) => (trip = { marker, resolve })),
    down,
    up: () => void (isDown = false),
    close: () =>
      new Promise<void>((resolve) => {
        down();
        server.close(() => resolve());
      }),
  };
}
