import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { configFromEnv, type Config } from '../../src/config.js';
import { createHttpServer } from '../../src/server.js';

export interface TestServer {
  url: string;
  config: Config;
  built: BuiltApp;
  server: Server;
  close(): Promise<void>;
}

/**
 * Builds the app on a throw-away store (in-memory SQLite unless
 * TEST_DATABASE_URL or `env` says otherwise), with strict response
 * validation, and listens on an ephemeral loopback port (or `env.PORT`). `options.logger`
 * receives the app's logs (silent unless TEST_LOG_LEVEL says otherwise).
 */
export async function startServer(env: Record<string, string> = {}, options: { logger?: Logger } = {}): Promise<TestServer> {
  const databaseUrl = env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
  // On PostgreSQL each server gets a schema of its own, dropped on close.
  const schema = databaseUrl.startsWith('postgres') ? (env.DATABASE_SCHEMA ?? `test_${randomUUID().replaceAll('-', '')}`) : undefined;
  const config = configFromEnv({
    DATABASE_URL: databaseUrl,
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    RESPONSE_VALIDATION: 'strict',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const built = await buildApp(config, { logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
  const server = createHttpServer(built.app, config, built.services);
  // An ephemeral port, unless `env.PORT` names one (so PUBLIC_URL can be the server's own address).
  await new Promise<void>((resolve) => server.listen(env.PORT ? Number(env.PORT) : 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    config,
    built,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await built.close();
      if (schema && !env.DATABASE_SCHEMA) await dropSchema(databaseUrl, schema);
    },
  };
}

/** Drops a test's own PostgreSQL schema. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
