/**
 * Peer: Fastify + fastify-openapi-glue: routes and Ajv validators of the
 * parameters built from the contract; the handler answers the bytes (a
 * Buffer, so no response serializer runs), and with BENCH_WITH_HEADERS=1
 * the project's headers as constants. No logger.
 */
import Fastify from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { answerFastifyError, body, contentType, contract, extraHeaders, host, port, prefix } from './common.js';

// Longer path parameters than find-my-way's default 100 reach the contract's validator (maxLength 128), as in the other servers.
const app = Fastify({ logger: false, routerOptions: { maxParamLength: 1024 } });
app.setErrorHandler(answerFastifyError);
await app.register(openapiGlue, {
  specification: contract(),
  prefix,
  serviceHandlers: {
    // With BENCH_WITH_HEADERS=1, the project's headers too, as constants (one `headers` call, Fastify's own way).
    getProfileById: async (
      _request: unknown,
      reply: { headers(h: Record<string, string>): { type(t: string): { send(b: Buffer): unknown } } },
    ) => reply.headers(extraHeaders).type(contentType).send(body),
  },
});
await app.listen({ port, host });
