import type { RequestListener } from 'node:http';
import Koa from 'koa';
import type { Logger } from 'pino';
import { sql, type Kysely, type LogEvent } from 'kysely';
import { accountsModule } from './accounts/module.js';
import { composeConfig, selectServices, type ConfigOf } from './platform/config.js';
import { loadContractOnce } from './platform/contract/cache.js';
import { docsRoutes } from './platform/docs/docsRoutes.js';
import { contractPipeline } from './platform/pipeline/pipeline.js';
import { scopedHooks } from './platform/pipeline/hooks.js';
import { tooManyRequests } from './platform/answers/errors.js';
import { limitedRequests, rateLimits } from './platform/security/limits.js';
import { requestId } from './platform/answers/requestId.js';
import { securityHeaders } from './platform/answers/securityHeaders.js';
import type { ServiceDefinition } from './platform/pipeline/service.js';
import type { BuiltService, ServiceModule, StoreModule, TablesOf } from './platform/module.js';
import { healthRoutes, type ReadinessCheck } from './platform/ops/health.js';
import { createLogger } from './platform/ops/logger.js';
import { createMetrics, metricsRoute, type Metrics } from './platform/ops/metrics.js';
import { observeRequests } from './platform/ops/observe.js';
import { startTracing } from './platform/ops/tracing.js';
import { projectFile } from './platform/projectRoot.js';
import { openDatabase, postgresPool, withStartupLock, type OpenDatabase } from './platform/store/database.js';
import { openReadReplicas } from './platform/store/replicas.js';
import { createReadYourWrites } from './platform/store/readYourWrites.js';
import { migrateModules } from './platform/store/migrations.js';
import { createChangeBus } from './platform/store/changes.js';
import { connectRedis } from './platform/store/redis.js';
import { developerModule } from './services/developer/module.js';
import { profilesModule } from './services/profiles/module.js';
import { publishingModule } from './services/publishing/module.js';

/** The services this app can serve, in the order their migrations apply (after the accounts'). */
export const SERVICES = [profilesModule, publishingModule, developerModule] as const;

/** Every module with tables, in migration order: the accounts first (the services' tables refer to them). */
export const STORE_MODULES = [accountsModule, ...SERVICES] as const;

/** Every table of every module. */
export type Database = TablesOf<typeof STORE_MODULES>;

/** Every setting: the platform's and each service module's own (see docs/configuration.md). */
export type Config = ConfigOf<typeof SERVICES>;

/** Reads the configuration from the environment; throws a ConfigError naming the variable on a bad value or conflicting settings. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return composeConfig(env, SERVICES);
}

export interface BuiltApp {
  app: Koa;
  /** The request listener the HTTP server runs: Koa's, every request through the one pipeline. */
  callback(): RequestListener;
  /** The app of the metrics port (`METRICS_PORT`), when configured; the caller listens on it. */
  metricsApp?: Koa;
  logger: Logger;
  metrics: Metrics;
  /** The open store, for tests and tasks that work beside the services. */
  db: Kysely<Database>;
  /** The services this app serves, each with its prefix and compiled contract. */
  services: readonly ServiceDefinition[];
  /** Releases the store and other connections. */
  close(): Promise<void>;
}

/**
 * Opens the store named by the configuration and applies every module's
 * pending migrations (under the start-up lock, so instances starting
 * together do it once), then `work` under the same lock.
 */
export async function openMigratedStore(
  config: Config,
  options: {
    onQueryError?: () => void;
    onQuery?: (event: LogEvent) => void;
    work?: (db: Kysely<Database>) => Promise<void>;
    /** `sqlite::memory:`: start from this image of a store (see `openDatabase`). */
    sqliteImage?: Buffer;
  } = {},
): Promise<OpenDatabase<Database>> {
  const database = openDatabase<Database>(config.databaseUrl, {
    timeoutMs: config.storeTimeoutMs,
    schema: config.databaseSchema,
    onQueryError: options.onQueryError,
    onQuery: options.onQuery,
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    busyWaitMs: config.storeBusyWaitMs,
    sqliteImage: options.sqliteImage,
  });
  try {
    await withStartupLock(database, async () => {
      await migrateModules(
        database,
        STORE_MODULES.map((module) => ({ module: module.name, migrations: module.migrations })),
      );
      await options.work?.(database.db);
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Builds the Koa app with every dependency made from `config`: store opened
 * and migrated, contracts loaded and compiled, the configured services
 * built from their modules. Listening is the caller's job (`main.ts`, or a
 * test on an ephemeral port).
 */
export async function buildApp(
  config: Config,
  options: {
    logger?: Logger;
    /** `sqlite::memory:`: the store starts as a copy of this image of a store, migrated and seeded as it says. */
    sqliteImage?: Buffer;
  } = {},
): Promise<BuiltApp> {
  const served = selectServices(config.services, SERVICES as readonly ServiceModule<Database, Config>[]);
  const logger = options.logger ?? createLogger(config.logLevel);
  // Served on a port of their own (`METRICS_PORT`) or on the API port to the bearer of `METRICS_TOKEN`; else not at all.
  const metrics = createMetrics({ served: config.metrics.port !== undefined || config.metrics.token !== undefined });
  const tracing = await startTracing(config.tracing, config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres');
  const database = await openMigratedStore(config, {
    sqliteImage: options.sqliteImage,
    onQueryError: () => metrics.storeErrors.inc(),
    onQuery: tracing?.statement,
    work: async (db) => {
      if (!config.seedDemoData) return;
      for (const module of STORE_MODULES as readonly StoreModule<Database, Config>[]) await module.seed?.(db, config);
    },
  });
  const replicas =
    config.databaseReadUrls.length && database.pool
      ? openReadReplicas<Database>({
          urls: config.databaseReadUrls,
          primary: database.pool,
          makePool: (url) => postgresPool(url, { timeoutMs: config.storeTimeoutMs, schema: config.databaseSchema }),
          maxLagMs: config.replicaMaxLagMs,
          checkMs: config.replicaCheckMs,
          logger,
          log: database.log,
        })
      : undefined;
  const redisTarget = config.redisUrl ?? config.redisClusterNodes;
  const redis = redisTarget
    ? await connectRedis(redisTarget, logger, config.storeTimeoutMs, config.redisKeyPrefix, tracing?.redisCommand)
    : undefined;
  const changes = createChangeBus({ redis: redis?.client, channel: `${config.redisKeyPrefix}:changes`, logger });
  // A caller's position is needed until every replica in use has replayed it: one lag bound plus the checks that tell.
  const readYourWrites =
    replicas && database.pool
      ? createReadYourWrites({
          primary: database.pool,
          redis: redis?.client,
          keyPrefix: config.redisKeyPrefix,
          windowMs: 2 * (config.replicaMaxLagMs + 2 * config.replicaCheckMs),
          logger,
        })
      : undefined;
  const readiness: ReadinessCheck[] = [
    { name: 'store', check: async () => void (await sql`select 1`.execute(database.db)) },
    ...(redis ? [{ name: 'redis', check: () => redis.ping(), optional: true }] : []),
  ];

  const welcome = async (account: { id: string; email: string }) => {
    for (const module of STORE_MODULES as readonly StoreModule<Database, Config>[])
      await module.welcome?.(database.db, account, config);
  };
  const farewell = async (accountId: string) => {
    for (const module of STORE_MODULES as readonly StoreModule<Database>[])
      await module.farewell?.(database.db, accountId);
  };
  // The sites accounts may grant apps: the one module that keeps sites answers (with SERVICES naming it or not).
  const sites = (STORE_MODULES as readonly StoreModule<Database>[])
    .find((module) => module.sites)
    ?.sites?.(database.db) ?? { ofAccount: async () => [], byIds: async () => [] };
  const built: BuiltService[] = [];
  for (const module of served) {
    built.push(
      module.create({
        contract: await loadContractOnce(projectFile(module.contractFile)),
        db: database.db,
        readDb: replicas?.db ?? database.db,
        changeMark: database.changeMark,
        config,
        logger,
        redis: redis?.client,
        metrics: metrics.registry,
        changes,
        onRateLimited: (caller) => metrics.rateLimitRejections.inc({ service: module.name, caller }),
        welcome,
        farewell,
        sites,
      }),
    );
  }
  const services = built.map((service) => service.definition);

  // What no operation answers (the docs and contract downloads, the dashboard page, unknown paths) has one limit per address.
  const otherLimits = rateLimits({
    shared: redis ? { redis: redis.client, keyPrefix: config.redisKeyPrefix } : undefined,
    refuse: tooManyRequests,
    onRefused: (caller) => metrics.rateLimitRejections.inc({ service: 'platform', caller }),
  });
  const otherRequests = otherLimits.step({
    name: 'other',
    per: 'address',
    points: config.rateLimits.otherPerHour,
    windowSeconds: config.rateLimits.windowSeconds,
  });

  // Behind trusted proxies the client IP is the X-Forwarded-For entry the nearest of them appended.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  app.silent = true;
  // Where the served contracts say the deployment is (see openApiDocumentHandler); unset: the origin a request reached.
  if (config.publicUrlFromEnv) Object.assign(app.context, { publicUrl: config.publicUrl });
  app.use(securityHeaders({ https: config.publicUrl.startsWith('https:') }));
  app.use(requestId);
  if (tracing) app.use(tracing.requests);
  app.use(observeRequests(logger, metrics, tracing?.ids));
  // Nothing of a service before the observation step: the OAuth server's requests are logged and counted like every other.
  // Each request meets the onRequest hook of the service whose prefix owns its path, and no other.
  app.use(
    scopedHooks(
      built.flatMap(({ onRequest }, index) => (onRequest ? [{ service: served[index]!.name, hook: onRequest }] : [])),
    ),
  );
  app.use(healthRoutes(readiness, config.storeTimeoutMs));
  // `/metrics` on the API port only behind a token, and only when it has no port of its own.
  if (config.metrics.token && config.metrics.port === undefined)
    app.use(metricsRoute(metrics, { token: config.metrics.token }));
  app.use(
    contractPipeline(services, {
      logger,
      responseValidation: config.responseValidation,
      storeRetryAfterSeconds: config.storeRetryAfterSeconds,
      maxAnswerBytes: config.maxAnswerBytes,
      unroutedLimit: otherRequests,
      readYourWrites,
    }),
  );
  app.use(limitedRequests(otherRequests));
  app.use(
    docsRoutes(
      projectFile('dist/docs'),
      served.flatMap((module) => [module.name, ...(module.documents ?? [])]),
    ),
  );
  for (const { onNotFound } of built) if (onNotFound) app.use(onNotFound);
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'Not found', code: 'not_found' };
  });

  let metricsApp: Koa | undefined;
  if (config.metrics.port !== undefined) {
    metricsApp = new Koa();
    metricsApp.silent = true;
    metricsApp.use(securityHeaders({ https: false }));
    metricsApp.use(metricsRoute(metrics, { token: config.metrics.token }));
  }

  return {
    app,
    callback: () => app.callback(),
    metricsApp,
    logger,
    metrics,
    db: database.db,
    services,
    async close() {
      await changes.close();
      await redis?.close();
      await replicas?.close();
      await database.close();
      await tracing?.shutdown();
    },
  };
}
