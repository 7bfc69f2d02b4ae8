import { createServer } from 'node:http';
import { buildApp } from './app.js';
import { ConfigError } from './platform/config.js';
import { configFromEnv } from './app.js';
import { createHttpServer } from './platform/server.js';

/** Reads configuration from the environment, builds the app and listens. */
async function main() {
  const config = configFromEnv();
  const built = await buildApp(config);
  const { metricsApp, logger, services, close } = built;
  const server = createHttpServer(built, config, services);
  server.listen(config.port, config.host, () => {
    logger.info(
      { port: config.port, host: config.host, services: services.map((service) => service.name) },
      'listening',
    );
  });
  // Prometheus reads /metrics on a port of its own, off the public API port.
  const metricsServer = metricsApp && createServer(metricsApp.callback());
  metricsServer?.listen(config.metrics.port, config.metrics.host, () => {
    logger.info({ port: config.metrics.port, host: config.metrics.host }, 'metrics listening');
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
    metricsServer?.close();
    server.close(async () => {
      await close();
      logger.info('stopped');
      process.exit(0);
    });
    // Idle keep-alive connections would otherwise hold the process for the whole grace period.
    server.drain();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// One line on stderr (a configuration error names its variable), then a non-zero exit.
main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `${error instanceof ConfigError ? 'configuration error' : 'start-up failed'}: ${message.replace(/\s*\n\s*/g, ' ')}`,
  );
  process.exit(1);
});
