/**
 * Peer: Express + express-openapi-validator: the validator finds the
 * operation in the contract and validates the request's parameters;
 * responses are not validated. No ETag (Koa sets none either), no
 * `X-Powered-By`.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { badRequest, body, contentType, contract, host, port, prefix } from './common.js';

const app = express();
app.set('etag', false);
app.disable('x-powered-by');
app.use(
  OpenApiValidator.middleware({
    // It takes the base path from the first server URL and cannot expand the contract's `{base_url}` variable.
    apiSpec: { ...contract(), servers: [{ url: prefix }] } as never,
    validateRequests: true,
    validateResponses: false,
    // The other peers check no credentials either: routing and validation only.
    validateSecurity: false,
    // Its compiler cannot follow the contract's `$ref`s into another schema's properties; resolved first, they work.
    $refParser: { mode: 'dereference' },
    // Its check of the document itself follows OpenAPI 3.0, which refuses a relative `externalValue` (3.1 allows it).
    validateApiSpec: false,
  }),
);
app.get(`${prefix}/profiles/:profileIdentifier`, (_request: Request, response: Response) => {
  response.status(200).type(contentType).end(body);
});
app.use((error: { status?: number; message?: string }, _request: Request, response: Response, _next: NextFunction) => {
  if (process.env.BENCH_DEBUG) console.error(error);
  const status = error.status ?? 500;
  response
    .status(status)
    .type('application/json')
    .end(badRequest(status === 400 ? (error.message ?? '') : 'error'));
});
app.listen(port, host);
