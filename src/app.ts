import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { dashboardPage } from './developer/http/dashboardPage.js';
import { createDeveloperService } from './developer/service.js';
import { loadContractOnce } from './http/contract.js';
import { docsRoutes } from './http/docs.js';
import { contractPipeline } from './http/pipeline.js';
import { requestId } from './http/requestId.js';
import type { ServiceDefinition } from './http/service.js';
import { createLogger } from './logger.js';
import { projectFile } from './projectRoot.js';
import { profilesCors } from './profiles/http/cors.js';
import { AVATAR_PREFIX, createProfilesService, PROFILES_PREFIX } from './profiles/service.js';
import { createPublishingService } from './publishing/service.js';
import { migrateToLatest, openDatabase, withStartupLock, type Database } from './store/database.js';
import { healthRoutes, type ReadinessCheck } from './ops/health.js';
import { createMetrics, metricsRoute, type Metrics } from './ops/metrics.js';
import { observeRequests } from './ops/observe.js';
import { sql, type Kysely } from 'kysely';
import { seedDemoData } from './store/demo.js';
import { connectRedis } from './store/redis.js';

export interface BuiltApp {
  app: Koa;
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
 * Builds the Koa app with every dependency made from `config`: contracts
 * loaded and compiled, store opened and migrated, services bound. Listening
 * is the caller's job (`main.ts`, or a test on an ephemeral port).
 */
export async function buildApp(config: Config, options: { logger?: Logger } = {}): Promise<BuiltApp> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const database = openDatabase(config.databaseUrl, {
    timeoutMs: config.storeTimeoutMs,
    schema: config.databaseSchema,
    onQueryError: () => metrics.storeErrors.inc(),
    sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs,
    busyWaitMs: config.storeBusyWaitMs,
  });
  try {
    await withStartupLock(database, async () => {
      await migrateToLatest(database);
      if (config.seedDemoData) await seedDemoData(database.db, config);
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger, config.storeTimeoutMs) : undefined;
  const readiness: ReadinessCheck[] = [
    { name: 'store', check: async () => void (await sql`select 1`.execute(database.db)) },
    ...(redis ? [{ name: 'redis', check: () => redis.ping(), optional: true }] : []),
  ];

  const services: ServiceDefinition<never>[] = [];
  if (config.services.includes('profiles')) {
    const contract = await loadContractOnce(projectFile('openapi/profiles.yaml'));
    services.push(createProfilesService({
        contract,
        db: database.db,
        config,
        redis: redis?.client,
        onRateLimited: (caller) => metrics.rateLimitRejections.inc({ service: 'profiles', caller }),
      }) as ServiceDefinition<never>);
  }
  if (config.services.includes('publishing')) {
    const contract = await loadContractOnce(projectFile('openapi/publishing.yaml'));
    services.push(createPublishingService({
        contract,
        db: database.db,
        config,
        onRestore: (outcome) => metrics.postRestores.inc({ outcome }),
        onDelete: (outcome) => metrics.postDeletions.inc({ outcome }),
      }) as ServiceDefinition<never>);
  }
  if (config.services.includes('developer')) {
    const contract = await loadContractOnce(projectFile('openapi/developer.yaml'));
    services.push(createDeveloperService({ contract, db: database.db, config, logger }) as ServiceDefinition<never>);
  }

  // Behind trusted proxies the client IP is the X-Forwarded-For entry the nearest of them appended.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops });
  app.silent = true;
  app.use(requestId);
  if (config.services.includes('profiles')) app.use(profilesCors([PROFILES_PREFIX, AVATAR_PREFIX]));
  app.use(observeRequests(logger, metrics));
  app.use(healthRoutes(readiness, config.storeTimeoutMs));
  // `/metrics` on the API port only behind a token, and only when it has no port of its own.
  if (config.metrics.token && config.metrics.port === undefined) app.use(metricsRoute(metrics, { token: config.metrics.token }));
  app.use(
    contractPipeline(services as ServiceDefinition[], {
      logger,
      responseValidation: config.responseValidation,
      storeRetryAfterSeconds: config.storeRetryAfterSeconds,
      maxAnswerBytes: config.maxAnswerBytes,
    }),
  );
  app.use(docsRoutes(projectFile('dist/docs'), config.services));
  if (config.services.includes('developer')) app.use(dashboardPage(projectFile('dist/developers')));
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: 'Not found', code: 'not_found' };
  });

  let metricsApp: Koa | undefined;
  if (config.metrics.port !== undefined) {
    metricsApp = new Koa();
    metricsApp.silent = true;
    metricsApp.use(metricsRoute(metrics, { token: config.metrics.token }));
  }

  return {
    app,
    metricsApp,
    logger,
    metrics,
    db: database.db,
    services: services as ServiceDefinition[],
    async close() {
      await redis?.close();
      await database.close();
    },
  };
}
