import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { publishingToken } from '../../support/credentials.js';
import { startRedis, type RedisServer } from '../../support/redis.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set the server sends OpenTelemetry spans
 * over OTLP/HTTP: one server span per request, named by its operationId,
 * with a client span under it for each store statement and each Redis
 * command; the access log line carries the same trace id as the spans, and
 * the request id as an attribute. A receiver started here collects them.
 */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

let receiver: Server;
const received: OtlpSpan[] = [];
let redis: RedisServer;
let server: TestServer;
let untraced: TestServer;
let call: typeof fetch;
const logged: Record<string, unknown>[] = [];
const untracedLogged: Record<string, unknown>[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) {
        const payload = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        received.push(...payload.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  redis = await startRedis();
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `trace-${randomUUID()}`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    LOG_LEVEL: 'info',
  };
  server = await startServer(env, {
    logger: pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) }),
  });
  untraced = await startServer(
    { LOG_LEVEL: 'info' },
    { logger: pino({ level: 'info' }, { write: (line: string) => untracedLogged.push(JSON.parse(line)) }) },
  );
  call = contractFetch(await contractChecker());
}, 60_000);

afterAll(async () => {
  await untraced?.close();
  await server?.close();
  await redis?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

/** The spans of the trace `traceId` once the server span has arrived (the exporter sends in batches). */
async function trace(traceId: string): Promise<OtlpSpan[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (received.some((span) => span.traceId === traceId && span.kind === 2)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return received.filter((span) => span.traceId === traceId);
}

describe('traces over OTLP/HTTP', () => {
  it("one restore's tree: the server span named by its operation, a span per store statement under it, the log line with its trace id", async () => {
    const token = await publishingToken(server, 'admin');
    const parentTrace = randomUUID().replaceAll('-', '');
    const parentSpan = randomUUID().replaceAll('-', '').slice(0, 16);
    const res = await call(`${server.url}/rest/v1.1/sites/1/posts/106/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${parentTrace}-${parentSpan}-01` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const spans = await trace(parentTrace);
    const root = spans.find((span) => span.kind === 2)!;
    expect(root).toBeDefined();
    expect(root.name).toBe('POST restorePost');
    expect(root.parentSpanId).toBe(parentSpan);
    expect(attribute(root, 'openapi.operation_id')).toBe('restorePost');
    expect(attribute(root, 'http.response.status_code')).toBe(200);
    expect(attribute(root, 'http.request.id')).toBe(requestId);

    const statements = spans.filter(
      (span) =>
        attribute(span, 'db.system') === (server.config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgresql'),
    );
    expect(statements.length).toBeGreaterThanOrEqual(3);
    expect(statements.every((span) => span.parentSpanId === root.spanId && span.kind === 3)).toBe(true);
    expect(
      statements.some((span) => /^update /.test(span.name) && /update/i.test(String(attribute(span, 'db.query.text')))),
    ).toBe(true);

    const line = logged.find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    expect(line).toMatchObject({ traceId: parentTrace, spanId: root.spanId, operationId: 'restorePost' });
  });

  it('a lookup counted in Redis: a span per Redis command under the server span', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const res = await call(`${server.url}/v3/profiles/alex`, {
      headers: { traceparent: `00-${traceId}-${'1'.repeat(16)}-01` },
    });
    expect(res.status).toBe(200);
    const spans = await trace(traceId);
    const root = spans.find((span) => span.kind === 2)!;
    expect(root.name).toBe('GET getProfileById');
    const commands = spans.filter((span) => attribute(span, 'db.system') === 'redis');
    expect(commands.length).toBeGreaterThanOrEqual(1);
    expect(commands.every((span) => span.parentSpanId === root.spanId && /^redis /.test(span.name))).toBe(true);
  });

  it('is off without an endpoint: no spans, no trace ids in the log', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const res = await call(`${untraced.url}/v3/profiles/alex`, {
      headers: { traceparent: `00-${traceId}-${'2'.repeat(16)}-01` },
    });
    expect(res.status).toBe(200);
    const line = untracedLogged.find(
      (entry) => entry.msg === 'request' && entry.requestId === res.headers.get('x-request-id'),
    );
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('traceId');
    // A traced request after it has arrived: had the untraced one been sent, it would be here by now.
    const later = randomUUID().replaceAll('-', '');
    await call(`${server.url}/v3/profiles/alex`, { headers: { traceparent: `00-${later}-${'3'.repeat(16)}-01` } });
    expect((await trace(later)).length).toBeGreaterThan(0);
    expect(received.some((span) => span.traceId === traceId)).toBe(false);
  });
});
