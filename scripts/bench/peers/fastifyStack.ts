/**
 * Peer: the stack a user would pick instead, doing the same work per
 * lookup as the project: Fastify + fastify-openapi-glue (routes and Ajv
 * validators of the parameters from the contract) + @fastify/rate-limit (a
 * limit per client address, in memory, out of reach as the project's in the
 * bench) + a read of the profile from the SQLite store (BENCH_DATABASE, the
 * project's own tables, read-only) on every request, its JSON columns parsed
 * and the profile written as JSON. No logger.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import openapiGlue from 'fastify-openapi-glue';
import { answerFastifyError, contract, host, port, prefix } from './common.js';

const db = new Database(process.env.BENCH_DATABASE!, { readonly: true });
const bySlug = db.prepare('select * from profiles where slug = ?');
const JSON_COLUMNS = [
  'languages',
  'interests',
  'links',
  'contact_info',
  'payment_links',
  'crypto_wallets',
  'gallery',
  'verified_accounts',
] as const;

const app = Fastify({ logger: false, routerOptions: { maxParamLength: 1024 } });
await app.register(rateLimit, { max: 1_000_000_000, timeWindow: 3_600_000 });
app.setErrorHandler(answerFastifyError);
await app.register(openapiGlue, {
  specification: contract(),
  prefix,
  serviceHandlers: {
    getProfileById: async (
      request: { params: { profileIdentifier: string } },
      reply: { code(status: number): unknown; type(t: string): { send(b: string): unknown } },
    ) => {
      const row = bySlug.get(request.params.profileIdentifier) as Record<string, unknown> | undefined;
      if (!row) {
        reply.code(404);
        return reply.type('application/json').send('{"error":"Profile not found","code":"not_found"}');
      }
      const profile: Record<string, unknown> = { ...row };
      for (const column of JSON_COLUMNS) profile[column] = JSON.parse(row[column] as string);
      return reply.type('application/json').send(JSON.stringify(profile));
    },
  },
});
await app.listen({ port, host });
