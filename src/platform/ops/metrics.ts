import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { Counter, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** The Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export interface Metrics {
  registry: Registry;
  /** `http_requests_total` and `http_request_duration_seconds`, recorded together (see `RequestMetrics`). */
  requests: RequestMetrics;
  rateLimitRejections: Counter<'service' | 'caller'>;
  storeErrors: Counter;
}

/**
 * Creates the registry with the platform's series (services add their own to `registry`), and prom-client's process
 * metrics when they are served (`served`): those watch the event loop's delay with a histogram of its own and observe
 * every garbage collection, work and memory for nothing where no one reads `/metrics`.
 */
export function createMetrics(options: { served: boolean }): Metrics {
  const registry = new Registry();
  if (options.served) collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new RequestMetrics(registry),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429, by service and kind of caller.',
      labelNames: ['service', 'caller'],
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: 'store_errors_total',
      help: 'Store queries that failed.',
      registers: [registry],
    }),
  };
}

/** Upper bounds (seconds) of `http_request_duration_seconds`. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One service and operation's requests: counts by status, and the time histogram (counts per bucket, the last one +Inf). */
interface Series {
  service: string;
  operation: string;
  statuses: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * `http_requests_total` (by service, operation and status) and
 * `http_request_duration_seconds` (by service and operation), kept in plain
 * numbers per series and laid out for Prometheus only when scraped.
 * prom-client's own Counter and Histogram check and hash their labels on
 * every observation, which the request path need not pay for (see
 * docs/decisions/request-metrics.md). The text is what prom-client writes
 * for the same series.
 */
export class RequestMetrics {
  /** By service, then operation: two lookups of strings the pipeline already holds, nothing built per request. */
  private readonly byService = new Map<string, Map<string, Series>>();
  private readonly series: Series[] = [];

  constructor(registry: Registry) {
    const collect = (name: string, help: string, type: 'counter' | 'histogram', values: () => object[]) =>
      ({
        name,
        help,
        type,
        aggregator: 'sum',
        get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
        reset: () => this.reset(),
      }) as unknown as Metric;
    registry.registerMetric(
      collect('http_requests_total', 'Requests answered, by service, operationId and status.', 'counter', () =>
        this.series.flatMap(({ service, operation, statuses }) =>
          [...statuses].map(([status, value]) => ({ labels: { service, operation, status: String(status) }, value })),
        ),
      ),
    );
    const name = 'http_request_duration_seconds';
    registry.registerMetric(
      collect(name, 'Time to answer, by service and operationId.', 'histogram', () =>
        this.series.flatMap(({ service, operation, buckets, sum, count }) => {
          let cumulative = 0;
          return [
            ...buckets.map((inBucket, i) => ({
              labels: { le: i < DURATION_BUCKETS.length ? DURATION_BUCKETS[i] : '+Inf', service, operation },
              value: (cumulative += inBucket),
              metricName: `${name}_bucket`,
            })),
            { labels: { service, operation }, value: sum, metricName: `${name}_sum` },
            { labels: { service, operation }, value: count, metricName: `${name}_count` },
          ];
        }),
      ),
    );
  }

  /** Counts one answered request and the seconds it took. */
  record(service: string, operation: string, status: number, seconds: number): void {
    let operations = this.byService.get(service);
    if (!operations) this.byService.set(service, (operations = new Map()));
    let series = operations.get(operation);
    if (!series) {
      series = {
        service,
        operation,
        statuses: new Map(),
        buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      operations.set(operation, series);
      this.series.push(series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /** Forgets every series (prom-client's `registry.resetMetrics()`). */
  reset(): void {
    this.byService.clear();
    this.series.length = 0;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` in the Prometheus text format, for whoever presents
 * `Authorization: Bearer <token>` when a token is given (401 otherwise; the
 * token is compared in constant time), for anyone without one (the route is
 * then mounted only on the metrics port, never on the public API port).
 */
export function metricsRoute(metrics: Metrics, options: { token?: string } = {}): Middleware {
  const expected = options.token === undefined ? undefined : digest(options.token);
  // Not async: every other request passes straight on.
  return (ctx, next) => {
    if (ctx.path !== '/metrics' || ctx.method !== 'GET') return next();
    if (expected) {
      const presented = /^Bearer +(\S+) *$/i.exec(ctx.get('authorization'))?.[1];
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        ctx.body = { error: 'Unauthorized', code: 'unauthorized' };
        return Promise.resolve();
      }
    }
    return metrics.registry.metrics().then((text) => {
      ctx.type = metrics.registry.contentType;
      ctx.body = text;
    });
  };
}
