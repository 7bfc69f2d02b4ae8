import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Context } from 'koa';
import { requestIdOf } from '../answers/requestId.js';
import { setHeaders } from '../answers/headers.js';
import type { ObservedRequest } from '../ops/observe.js';
import type { LimitStep } from '../security/limits.js';

/**
 * The fast path (docs/decisions/fast-path.md): a `GET` or `HEAD` that the
 * pipeline already answered, answered again on `node:http` before Koa builds
 * its context, byte for byte and header for header as the pipeline would.
 *
 * A service offers it for one operation (`fastOperation`): which requests
 * the operation would answer the same way for everyone (`takes`: its path,
 * no credential), the body its handler would answer now without asking the
 * store (`current`: a cache's answer; undefined on a miss), how the
 * presenter writes a body (`representation`) and decides a 304
 * (`notModified`), and its admit step (`admit`, counted for `principal`).
 *
 * What is answered is what the pipeline answered before: the handler's 200
 * answers are noted per request (`noting`), and when such an answer has
 * gone out, its status and headers (names, order, values) are kept for its
 * URL, method and status. A request then takes the fast path only when its
 * URL has a kept answer of its method and status for the very body the
 * handler would answer now (the same object: the cache's rule of what is
 * still valid, with no staleness of its own). The request's own values are
 * the only ones written anew, by the code the pipeline runs for them: the
 * request id (`requestIdOf`), the rate-limit headers (the admit step itself,
 * on the same counters), the access log line and the metrics (the same
 * recorder). Anything else goes to Koa untouched.
 *
 * When the admit step refuses (429), or the answer changed while a shared
 * counter was asked, the request goes to Koa with what was counted handed
 * over (`admitOnce`), so it is never counted twice.
 */
export interface FastOperationSpec<Principal> {
  service: string;
  operationId: string;
  /** Whether the pipeline would route this request (a `GET` or `HEAD` with no query string and no body) to the operation. */
  takes(req: IncomingMessage): boolean;
  /**
   * The caller as the pipeline's security step would resolve them, known without an asynchronous step (the
   * service's anonymous caller without a credential, a credential its cache knows as valid); undefined
   * otherwise (a credential to look up or to refuse: the pipeline answers).
   */
  principalOf(req: IncomingMessage): Principal | undefined;
  /** Which callers are answered the same body and headers (anonymous, keyed): the kept answers are theirs. */
  audienceOf(principal: Principal): string;
  /** The body the handler would answer the request with now, known without an asynchronous step; undefined otherwise. */
  current(req: IncomingMessage, principal: Principal): object | undefined;
  /** The bytes and entity tag the presenter writes for a body. */
  representation(body: object): { bytes: Buffer; etag: string };
  /** Whether the presenter answers the request 304 for an entity tag. */
  notModified(req: IncomingMessage, etag: string): boolean;
  admit: LimitStep<Principal>;
}

/** What the fast path counted for a request it handed to Koa: the rate-limit headers, or the refusal. */
type Counted = { headers: Record<string, string> } | { refused: unknown };

/** An operation the fast path may answer, with the two hooks the service puts in its pipeline. */
export interface FastOperation<Principal> extends FastOperationSpec<Principal> {
  /** The handler, noting the body of each 200 it answers to the request it answers. */
  noting<Input extends { ctx?: Context }, Answer>(handler: (input: Input) => Answer): (input: Input) => Answer;
  /** The admit step as the pipeline runs it: what the fast path counted for a request is used, not counted again. */
  readonly admitOnce: LimitStep<Principal>;
  /** The body noted for a request. */
  noted(req: IncomingMessage): object | undefined;
  /** Hands what was counted for a request over to the pipeline's admit step. */
  handOver(req: IncomingMessage, counted: Counted): void;
}

/** Makes an operation answerable by the fast path (see `FastOperationSpec`). */
export function fastOperation<Principal>(spec: FastOperationSpec<Principal>): FastOperation<Principal> {
  const noted = new WeakMap<IncomingMessage, object>();
  const handed = new WeakMap<IncomingMessage, Counted>();
  const step = spec.admit;
  const admitOnce = Object.assign(
    (ctx: Context, principal: Principal) => {
      const counted = handed.get(ctx.req);
      if (!counted) return step(ctx, principal);
      handed.delete(ctx.req);
      if ('refused' in counted) throw counted.refused;
      setHeaders(ctx, counted.headers);
    },
    { writes: step.writes, limits: step.limits },
  );
  return {
    ...spec,
    noting(handler) {
      const note = (ctx: Context | undefined, answer: unknown) => {
        const { status, body } = answer as { status: number; body: unknown };
        if (ctx && status === 200 && typeof body === 'object' && body !== null) noted.set(ctx.req, body);
        return answer;
      };
      return (input) => {
        const answer = handler(input);
        return (
          answer instanceof Promise ? answer.then((value) => note(input.ctx, value)) : note(input.ctx, answer)
        ) as typeof answer;
      };
    },
    admitOnce,
    noted: (req) => noted.get(req),
    handOver: (req, counted) => void handed.set(req, counted),
  };
}

/**
 * A kept answer's header lines, flat (name, value, name, value…, as
 * `writeHead` takes them): the names as written and in order, the values as
 * written, but at `requestId` and `counted` (by index) the request's own
 * (`counted` by the name as written, which is the admit step's own).
 */
interface KeptHeaders {
  lines: string[];
  requestId: number[];
  counted: { at: number; name: string }[];
}

/** The answers kept for one URL: the body they were given for, and the headers by method and status (`slot`). */
interface Kept {
  body: object;
  answers: (KeptHeaders | undefined)[];
}

/** Where a kept answer's headers are, by method (`GET`, `HEAD`) and status (200, 304): no key to build per request. */
const slot = (method: string | undefined, status: number) => (method === 'HEAD' ? 2 : 0) + (status === 304 ? 1 : 0);

/** Most URLs whose answers are kept (the profile lookup cache's size). */
const KEPT_URLS = 10_000;

/** What the fast path counts (tests read it, so that none can pass by always handing over to Koa). */
export interface FastPathCounts {
  answered: number;
}

/**
 * The request listener: the fast path for `operations` in front of Koa's
 * (`slow`). Requests that are not a `GET` or `HEAD` without query string,
 * body or `Expect`, or that no operation takes, go to Koa at once.
 */
export function fastPath(
  app: Koa,
  slow: RequestListener,
  operations: readonly FastOperation<unknown>[],
  observe: (request: ObservedRequest, started: number) => void,
): RequestListener & { counts: FastPathCounts } {
  /** The kept answers by audience, then by URL (no key to build per request), at most `KEPT_URLS` URLs each. */
  const kept = new Map<string, Map<string, Kept>>();
  const counts: FastPathCounts = { answered: 0 };
  /**
   * The client address as Koa reads it (`ctx.ip`): behind trusted proxies, on a request object of the app's own
   * (its trust-proxy settings); else the socket's address, which is what Koa answers then.
   */
  const ipOf = (req: IncomingMessage): string => {
    if (!app.proxy) return req.socket.remoteAddress || '';
    const request = Object.create(app.request) as Koa.Request;
    Object.assign(request, { app, req });
    return request.ip;
  };

  /** Keeps the answer Koa gave, once it has gone, when its handler noted a 200 body for it. */
  const keepAnswer = (operation: FastOperation<unknown>, req: IncomingMessage, res: ServerResponse) => {
    res.once('finish', () => {
      const body = operation.noted(req);
      const status = res.statusCode;
      if (!body || (status !== 200 && status !== 304)) return;
      // The caller as now known (the pipeline's answer put a new key in the cache): none, nothing kept.
      const principal = operation.principalOf(req);
      if (principal === undefined) return;
      const audience = operation.audienceOf(principal);
      const values = res.getHeaders();
      const counted = new Set(Object.keys(operation.admit.writes).map((name) => name.toLowerCase()));
      const headers: KeptHeaders = { lines: [], requestId: [], counted: [] };
      // The names as written (their letter case), in the order written: Node's types lack the method.
      for (const name of (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
        const lower = name.toLowerCase();
        const value = values[lower];
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [String(value)]) {
          const at = headers.lines.push(name, one) - 1;
          if (lower === 'x-request-id') headers.requestId.push(at);
          else if (counted.has(lower)) headers.counted.push({ at, name });
        }
      }
      let urls = kept.get(audience);
      if (!urls) kept.set(audience, (urls = new Map()));
      const url = req.url!;
      let entry = urls.get(url);
      if (!entry || entry.body !== body) {
        urls.delete(url);
        if (urls.size >= KEPT_URLS) urls.delete(urls.keys().next().value!);
        urls.set(url, (entry = { body, answers: [] }));
      }
      entry.answers[slot(req.method, status)] = headers;
    });
  };

  const write = (
    operation: FastOperation<unknown>,
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    answer: { status: number; bytes: Buffer; headers: KeptHeaders },
    counted: Record<string, string>,
  ) => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const kept = answer.headers;
    const lines = kept.lines.slice();
    for (const at of kept.requestId) lines[at] = requestId;
    for (const { at, name } of kept.counted) lines[at] = counted[name]!;
    res.writeHead(answer.status, lines);
    res.end(req.method === 'HEAD' || answer.status === 304 ? undefined : answer.bytes);
    counts.answered++;
    observe(
      {
        requestId,
        method: req.method!,
        path: req.url!,
        status: answer.status,
        service: operation.service,
        operationId: operation.operationId,
      },
      started,
    );
  };

  /** The kept answer for a request, if its URL has one for the caller's audience and the body the handler would answer now. */
  const keptAnswer = (operation: FastOperation<unknown>, req: IncomingMessage, principal: unknown) => {
    const entry = kept.get(operation.audienceOf(principal))?.get(req.url!);
    if (!entry || operation.current(req, principal) !== entry.body) return undefined;
    const { bytes, etag } = operation.representation(entry.body);
    const status = operation.notModified(req, etag) ? 304 : 200;
    const headers = entry.answers[slot(req.method, status)];
    return headers && { status, bytes, headers };
  };

  const serve = (operation: FastOperation<unknown>, req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const principal = operation.principalOf(req);
    const answer = principal === undefined ? undefined : keptAnswer(operation, req, principal);
    if (!answer) {
      keepAnswer(operation, req, res);
      return slow(req, res);
    }
    // What the step writes, by name as written: for the kept lines, and for Koa, should it answer after all.
    const written: Record<string, string> = {};
    const collected = {
      headersSent: false,
      setHeader(name: string, value: string) {
        written[name] = value;
      },
    };
    const ctx = { req, res: collected, ip: ipOf(req) } as unknown as Context;
    let admitted: void | Promise<void>;
    try {
      admitted = operation.admit(ctx, principal);
    } catch (refused) {
      operation.handOver(req, { refused });
      return slow(req, res);
    }
    /** Whether the step wrote every rate-limit header the kept answer has (else Koa writes what it did). */
    const complete = (kept: KeptHeaders) => kept.counted.every(({ name }) => written[name] !== undefined);
    if (!admitted && complete(answer.headers)) return write(operation, req, res, started, answer, written);
    if (!admitted) {
      operation.handOver(req, { headers: written });
      return slow(req, res);
    }
    admitted.then(
      () => {
        // Counted elsewhere (Redis): the answer may have changed meanwhile.
        const still = keptAnswer(operation, req, principal);
        if (still && complete(still.headers)) return write(operation, req, res, started, still, written);
        operation.handOver(req, { headers: written });
        keepAnswer(operation, req, res);
        slow(req, res);
      },
      (refused: unknown) => {
        operation.handOver(req, { refused });
        slow(req, res);
      },
    );
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const { method, url, headers } = req;
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      !url ||
      url.includes('?') ||
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
      headers.expect !== undefined
    )
      return slow(req, res);
    for (const operation of operations) if (operation.takes(req)) return serve(operation, req, res);
    return slow(req, res);
  };
  return Object.assign(listener, { counts });
}
