import type { Span, Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { LogEvent } from 'kysely';

/** Where spans go: an OTLP/HTTP traces URL, and the name the service reports. */
export interface TracingConfig {
  /** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; unset: no tracing. */
  tracesUrl: string | undefined;
  /** `OTEL_SERVICE_NAME`. */
  serviceName: string;
  /** `OTEL_BSP_SCHEDULE_DELAY`: milliseconds between batches sent (the SDK's default, 5000, unless set). */
  batchDelayMs: number;
}

/** Tracing of one app: what the HTTP layer, the store and Redis call when it is on. */
export interface Tracing {
  /** The server span of every request: its name and attributes say the operation once the pipeline knows it. */
  requests: Middleware;
  /** A span for a store statement that has just run (Kysely's query log), under the active span. */
  statement(event: LogEvent): void;
  /** Runs a Redis command under a client span of its own. */
  redisCommand<T>(name: string, run: () => Promise<T>): Promise<T>;
  /** The trace and span of the active context, for the logs. */
  ids(): { traceId: string; spanId: string } | undefined;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing (the official Node SDK, spans exported over
 * OTLP/HTTP) when an endpoint is configured; resolves to undefined
 * otherwise, and then nothing of it is loaded or called: tracing that is off
 * costs the request path nothing. Each app has a tracer provider of its own
 * (several apps may share a process in the tests); the context manager and
 * the W3C propagator are process-wide and registered once.
 */
export async function startTracing(config: TracingConfig, dialect: string): Promise<Tracing | undefined> {
  if (!config.tracesUrl) return undefined;
  const [
    api,
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ]);
  const { context, propagation, trace, SpanKind, SpanStatusCode, ROOT_CONTEXT } = api;
  // Both return false when already registered (another app in this process): the first stays.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl }), {
        scheduledDelayMillis: config.batchDelayMs,
      }),
    ],
  });
  const tracer: Tracer = provider.getTracer('contract-first-api');
  const dbSystem = dialect === 'postgres' ? 'postgresql' : 'sqlite';

  return {
    async requests(ctx, next) {
      const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
      const span: Span = tracer.startSpan(
        ctx.method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
        parent,
      );
      try {
        await context.with(trace.setSpan(parent, span), next);
      } catch (error) {
        span.recordException(error as Error);
        throw error;
      } finally {
        const operationId: string | undefined = ctx.state.operationId;
        if (operationId) {
          span.updateName(`${ctx.method} ${operationId}`);
          span.setAttribute('openapi.operation_id', operationId);
        }
        if (ctx.state.service) span.setAttribute('service.api', ctx.state.service);
        if (ctx.state.requestId) span.setAttribute('http.request.id', ctx.state.requestId);
        span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
    statement(event) {
      const end = Date.now();
      const sql = event.query.sql;
      const span = tracer.startSpan(
        `${sql.trimStart().split(/\s/, 1)[0]!.toLowerCase()} ${dbSystem}`,
        {
          kind: SpanKind.CLIENT,
          startTime: end - event.queryDurationMillis,
          attributes: { 'db.system': dbSystem, 'db.query.text': sql },
        },
        context.active(),
      );
      if (event.level === 'error') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(end);
    },
    async redisCommand(name, run) {
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: { 'db.system': 'redis' } },
        context.active(),
      );
      try {
        return await run();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
    ids() {
      const span = trace.getSpan(context.active());
      return span && { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}

/** Reads the standard OpenTelemetry variables (`OTEL_SDK_DISABLED=true` turns tracing off whatever else is set). */
export function tracingFromEnv(env: NodeJS.ProcessEnv): TracingConfig {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const tracesUrl =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  return {
    tracesUrl: env.OTEL_SDK_DISABLED === 'true' ? undefined : tracesUrl,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'contract-first-api',
    batchDelayMs: Number(env.OTEL_BSP_SCHEDULE_DELAY) > 0 ? Number(env.OTEL_BSP_SCHEDULE_DELAY) : 5000,
  };
}
