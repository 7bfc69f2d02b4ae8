/**
 * What every peer server of the benchmark is given: the port, the contract
 * (openapi/profiles.yaml) and the answer bytes the project itself sent for
 * `GET /v3/profiles/alex`, so every server answers the same bytes.
 */
import { readFileSync } from 'node:fs';
import { parseYaml } from '../../contracts.js';

export const port = Number(process.env.BENCH_PORT);
export const body = readFileSync(process.env.BENCH_BODY_FILE!);
export const contentType = process.env.BENCH_BODY_TYPE ?? 'application/json';
export const contractFile = process.env.BENCH_CONTRACT!;
/**
 * With BENCH_WITH_HEADERS=1 (the floors "with the project's headers"), the
 * headers the project sent with those bytes, as constants (BENCH_HEADERS,
 * JSON; without those Node writes itself: Date, Connection, Keep-Alive,
 * Content-Length); otherwise none.
 */
export const extraHeaders: Readonly<Record<string, string>> =
  process.env.BENCH_WITH_HEADERS === '1'
    ? (JSON.parse(process.env.BENCH_HEADERS ?? '{}') as Record<string, string>)
    : {};
/** The contract as written (with `$ref`s). */
export const contract = (): Record<string, unknown> =>
  parseYaml(readFileSync(contractFile, 'utf8')) as Record<string, unknown>;
/** The path prefix of the contract's server (`/v3`). */
export const prefix = '/v3';
export const host = '127.0.0.1';

/** The error body of every peer for a request the contract refuses. */
export const badRequest = (message: string) => Buffer.from(JSON.stringify({ error: message, code: 'invalid_request' }));

/** The Fastify peers' error handler: a validation failure answers `badRequest` with its message, anything else its status. */
export function answerFastifyError(
  error: { statusCode?: number; message: string },
  _request: unknown,
  reply: { code(status: number): { type(t: string): { send(body: Buffer): unknown } } },
): void {
  const status = error.statusCode ?? 500;
  reply
    .code(status)
    .type('application/json')
    .send(badRequest(status === 400 ? error.message : 'error'));
}
