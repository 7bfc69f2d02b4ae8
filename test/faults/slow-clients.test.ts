import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../support/contract.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Slow clients hold connections (headers dribbled a byte at a time, a body
 * that never finishes): everyone else is still served at once, and each
 * slow one is cut off with a 408 after HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS.
 */
const HOLDERS = 60;
let server: TestServer;
let call: typeof fetch;

beforeAll(async () => {
  server = await startServer({ HEADERS_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '2500' });
  call = contractFetch(await contractChecker());
});
afterAll(() => server?.close());

/** A connection that sends its request a little at a time and records what it is answered. */
function slowClient(kind: 'headers' | 'body'): { socket: Socket; answer: Promise<string> } {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  const head =
    kind === 'headers'
      ? 'GET /v3/profiles/alex HTTP/1.1\r\nHost: x\r\nX-Slow: '
      : 'POST /developer/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":';
  socket.write(head);
  const drip = setInterval(() => socket.writable && socket.write('a'), 200);
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => {
      clearInterval(drip);
      resolve(received);
    });
    socket.on('error', () => {});
  });
  return { socket, answer };
}

describe('slow clients holding connections', () => {
  it('do not keep others from being served, and are each answered 408 in time', async () => {
    const holders = Array.from({ length: HOLDERS }, (_, i) => slowClient(i % 2 ? 'headers' : 'body'));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const res = await call(`${server.url}/v3/profiles/alex`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    // Served while the holders wait: a starved request would wait for their headers timeout (1500 ms).
    expect(times[5]).toBeLessThan(750);

    const started = performance.now();
    const answers = await Promise.all(holders.map((holder) => holder.answer));
    expect(performance.now() - started).toBeLessThan(5000);
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
