import { buildApp } from './app.js';
import { configFromEnv } from './platform/config.js';
import { createHttpServer } from './platform/http/server.js';

/** Reads configuration from the environment, builds the app and listens. */
async function main() {
  const config = configFromEnv();
  const { app, logger, services, close } = await buildApp(config);
  const server = createHttpServer(app, config, services);
  server.listen(config.port, config.host, () => {
    logger.info({ port: config.port, host: config.host, services: services.map((service) => service.name) }, 'listening');
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.warn('grace period over; closing open connections');
      server.closeAllConnections();
    }, config.shutdownGraceMs);
    force.unref();
    server.close(async () => {
      await close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
