// @store-independent
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { contractChecker, requestTarget } from '../support/contract.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Idle keep-alive connections stay open longer than the idle timeout of the
 * load balancers and clients in front (`KEEP_ALIVE_TIMEOUT_MS`, 65 s by
 * default; Node's own default is 5 s), so the server never closes a
 * connection at the moment a client reuses it: that race answers the
 * client's request with a reset.
 */
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));
const checker = await contractChecker();
const PATH = '/v3/profiles/alex';

/** Opens a connection, sends one keep-alive request, and resolves with the answer's head and the open socket. */
async function oneRequest(url: string): Promise<{ socket: Socket; head: string }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  const head = await new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received)?.[1];
      if (end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)) resolve(received);
    });
    socket.write(`GET ${PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  });
  const [statusLine, ...lines] = head.slice(0, head.indexOf('\r\n\r\n')).split('\r\n');
  const headers = new Headers(
    lines.map(
      (line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string],
    ),
  );
  const body = head.slice(head.indexOf('\r\n\r\n') + 4);
  checker.check('GET', requestTarget(PATH), Number(statusLine!.split(' ')[1]), headers, body);
  return { socket, head };
}

/** Milliseconds until the server closes `socket`, or `limitMs` if it is still open then. */
const closedAfter = (socket: Socket, limitMs: number) =>
  new Promise<number>((resolve) => {
    const started = Date.now();
    const timer = setTimeout(() => resolve(limitMs), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });

describe('idle keep-alive connections', () => {
  it('stay open 65 s by default, past Node’s 5 s, and the answer says so', async () => {
    const server = await startServer();
    servers.push(server);
    expect(server.server.keepAliveTimeout).toBe(65_000);
    const { socket, head } = await oneRequest(server.url);
    expect(head).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
    expect(await closedAfter(socket, 6_000)).toBe(6_000);
    socket.destroy();
  });

  it('close after KEEP_ALIVE_TIMEOUT_MS when it is set', async () => {
    const server = await startServer({ KEEP_ALIVE_TIMEOUT_MS: '300' });
    servers.push(server);
    const { socket } = await oneRequest(server.url);
    const closedInMs = await closedAfter(socket, 5_000);
    expect(closedInMs).toBeGreaterThanOrEqual(200);
    expect(closedInMs).toBeLessThan(2_500);
  });
});
