import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './processes.js';
import { postgresUrl } from './postgres.js';
import { startServer, type TestServer } from './server.js';

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones, as a stopped server would. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL in the fault
 * tests), so one test can take "the database" away from one app instance
 * without stopping the server every other test uses.
 */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}

/**
 * A test server on a schema of its own in the suite's PostgreSQL
 * (TEST_POSTGRES_URL), reached through a TCP proxy that the test cuts and
 * restores to take the database away. `close` restores the proxy first, so
 * the server's schema is dropped, then closes both.
 */
export async function startServerBehindProxy(
  env: Record<string, string>,
): Promise<{ proxy: TcpProxy; server: TestServer; close(): Promise<void> }> {
  const postgres = new URL(postgresUrl);
  const proxy = await startTcpProxy(Number(postgres.port || 5432), postgres.hostname);
  const viaProxy = new URL(postgres);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const server = await startServer({ ...env, DATABASE_URL: viaProxy.toString() });
  return {
    proxy,
    server,
    async close() {
      await proxy.restore().catch(() => {});
      await server.close();
      await proxy.close();
    },
  };
}
