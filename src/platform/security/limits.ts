import type { Context, Middleware } from 'koa';
import { ApiError } from '../answers/errors.js';
import type { Writes } from '../answers/headers.js';
import { setHeaders } from '../answers/headers.js';
import type { RedisClient } from '../store/redis.js';
import { rateLimitClient } from './clientAddress.js';
import { windowCounter, type Counted, type RateLimitBudget, type WindowCounter } from './rateLimit.js';

/**
 * The one way to rate-limit: every limit is declared in an operation's
 * policy (`admit: limits.step(...)`) or, where the caller is named only by
 * the request's body (an email recipient), counted by its handler through
 * the same limit (`limits.limit(...).take(key)`). One result (`Counted`),
 * one header writer (`rateLimitHeaders`), one `Retry-After`
 * (`retryAfterSeconds`), one refusal per service (`refuse`).
 *
 *     const limits = rateLimits({ shared, refuse: rateLimitExceeded, onRefused });
 *     const reads = limits.step({ name: 'publishing-reads', per: 'address', points: 1000, windowSeconds: 3600 });
 *     policies = { getSite: { admit: reads, present }, … };
 */

/** The rate-limit headers a limit step writes on every answer it lets through (its `writes`). */
export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': true,
  'X-RateLimit-Remaining': true,
  'X-RateLimit-Reset': true,
} as const;

export type RateLimitHeader = keyof typeof RATE_LIMIT_HEADERS;

/** Whole seconds until a window ends, at least 1: the one `Retry-After` of every refusal. */
export const retryAfterSeconds = (counted: Pick<Counted, 'msBeforeNext'>): number =>
  Math.max(1, Math.ceil(counted.msBeforeNext / 1000));

/** The rate-limit headers of an answer counted against a budget of `limit` points. */
export function rateLimitHeaders(limit: number, counted: Counted): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(counted.remainingPoints),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + counted.msBeforeNext) / 1000)),
  };
}

/**
 * What names the caller a limit counts: the client address (`ctx.ip`, as
 * the trust-proxy setting reads it; IPv6 by its /64), or a function of the
 * request and the resolved caller (an API key, an account). A function that
 * answers undefined leaves the request out of that limit (an anonymous
 * caller has no key).
 */
export type CallerName<Principal> = 'address' | ((ctx: Context, principal: Principal) => string | undefined);

/**
 * What a limit that its handler counts (`limit(…).take(key)`) is counted per, in words: the handler names the key
 * (`inbox`: the inbox an account's address reaches, `canonicalInbox`; `application`: an OAuth client).
 */
export type CountedBy = 'account' | 'inbox' | 'recipient' | 'email and address' | 'application';

/** One limit: `points` requests per `windowSeconds`, per caller as `per` names them. */
export interface LimitDeclaration<Principal = unknown> {
  /** Names its counters (in Redis or the store) and its rejections in the metrics; unique in a deployment. */
  name: string;
  per: CallerName<Principal> | CountedBy;
  /** The callers it counts (all unless given), e.g. only anonymous ones by address. */
  when?: (principal: Principal) => boolean;
  points: number;
  windowSeconds: number;
  /**
   * Where it counts: a counter for its budget (the dashboard's, in the
   * store: `LibraryWindows` over its limiter); default: in this process, or
   * in Redis shared by every instance when the service has it.
   */
  counter?: (budget: RateLimitBudget) => WindowCounter;
  /** Its refusal, when it is not the service's (a message of its own). */
  refuse?: (headers: Record<string, string>) => ApiError;
}

/** A declared limit, as counted. */
export interface Limit<Principal = unknown> {
  readonly declaration: LimitDeclaration<Principal>;
  /** Counts a point for `key`; throws the refusal (429, with the rate-limit headers and `Retry-After`) when the window's points are spent. */
  take(key: string): Counted | Promise<Counted>;
  /** Counts a point for `key` and answers how it went, refusing nothing (a caller who must not learn of the limit). */
  count(key: string): Counted | Promise<Counted>;
  /** Gives a counted point back (what it counted did not happen); nothing where the counter cannot (Redis). */
  giveBack(key: string): void | Promise<void>;
  /** Forgets `key`'s count in its window (a success that ends a run of failures); nothing where the counter cannot (Redis). */
  forget(key: string): void | Promise<void>;
}

/** An admit step made of limits, with the limits it counts (for docs/operations.md's table, by test). */
export type LimitStep<Principal> = ((ctx: Context, principal: Principal) => void | Promise<void>) &
  Writes<RateLimitHeader> & { readonly limits: readonly LimitDeclaration<Principal>[] };

/** The client address a per-address limit counts under. */
export const clientAddress = (ctx: Context): string => rateLimitClient(ctx.ip);

/**
 * The limits of one service: where they count (in this process, or shared
 * through Redis with `shared`), how it refuses (its 429, in its own error
 * format) and what it reports (`onRefused`, the metrics' rejection counter).
 */
export function rateLimits(options: {
  shared?: { redis: RedisClient; keyPrefix: string };
  refuse: (headers: Record<string, string>) => ApiError;
  onRefused?: (name: string) => void;
}) {
  // One counter per name: a step and a handler that declare the same limit count the same points.
  const made = new Map<string, Limit<never>>();
  const limit = <Principal>(declaration: LimitDeclaration<Principal>): Limit<Principal> => {
    const known = made.get(declaration.name);
    if (known) return known as unknown as Limit<Principal>;
    const budget = { points: declaration.points, duration: declaration.windowSeconds };
    const counter = declaration.counter
      ? declaration.counter({ keyPrefix: declaration.name, ...budget })
      : windowCounter(
          { keyPrefix: `${options.shared?.keyPrefix ?? 'rl'}:${declaration.name}`, ...budget },
          options.shared?.redis,
        );
    const refuse = declaration.refuse ?? options.refuse;
    const decide = (counted: Counted): Counted => {
      if (counted.allowed) return counted;
      options.onRefused?.(declaration.name);
      throw refuse({
        ...rateLimitHeaders(declaration.points, counted),
        'Retry-After': String(retryAfterSeconds(counted)),
      });
    };
    const declared: Limit<Principal> = {
      declaration,
      take(key) {
        const counted = counter.count(key);
        // Counted in this process, the answer is at hand: no asynchronous step.
        return counted instanceof Promise ? counted.then(decide) : decide(counted);
      },
      count: (key) => counter.count(key),
      giveBack: (key) => counter.giveBack?.(key),
      forget: (key) => counter.forget?.(key),
    };
    made.set(declaration.name, declared as unknown as Limit<never>);
    return declared;
  };

  /**
   * An admit step counting each request against every one of `declarations`
   * that names its caller: over any of them the request is refused; else the
   * answer carries the rate-limit headers of the one with the fewest points
   * left (the key's or the account's, whichever runs out first).
   */
  const step = <Principal>(...declarations: LimitDeclaration<Principal>[]): LimitStep<Principal> => {
    const limits = declarations.map((declaration) => {
      const { per } = declaration;
      if (typeof per === 'string' && per !== 'address')
        throw new Error(`limit ${declaration.name}: a step names its caller by address or a function, not "${per}"`);
      const { when } = declaration;
      const named = per === 'address' ? clientAddress : (per as Exclude<typeof per, string>);
      const caller = when
        ? (ctx: Context, principal: Principal) => (when(principal) ? named(ctx, principal) : undefined)
        : named;
      return { limit: limit(declaration), caller };
    });
    const admit = (ctx: Context, principal: Principal): void | Promise<void> => {
      let tightest: Counted | undefined;
      let points = 0;
      let pending: Promise<void>[] | undefined;
      for (const { limit, caller } of limits) {
        const key = caller(ctx, principal);
        if (key === undefined) continue;
        const taken = limit.take(key);
        if (taken instanceof Promise) {
          const limitPoints = limit.declaration.points;
          (pending ??= []).push(
            taken.then((counted) => {
              if (!tightest || counted.remainingPoints < tightest.remainingPoints)
                (tightest = counted), (points = limitPoints);
            }),
          );
        } else if (!tightest || taken.remainingPoints < tightest.remainingPoints) {
          tightest = taken;
          points = limit.declaration.points;
        }
      }
      if (pending)
        return Promise.all(pending).then(() => tightest && setHeaders(ctx, rateLimitHeaders(points, tightest)));
      if (tightest) setHeaders(ctx, rateLimitHeaders(points, tightest));
    };
    return Object.assign(admit, { writes: RATE_LIMIT_HEADERS, limits: declarations });
  };

  return { limit, step };
}

/**
 * A limit step as Koa middleware, for what no service's operation answers
 * (the docs, the dashboard page, unknown paths): over its limit, a 429
 * `{"error", "code"}` with the rate-limit headers and `Retry-After`.
 */
export function limitedRequests(step: LimitStep<unknown>): Middleware {
  return async (ctx, next) => {
    try {
      const limited = step(ctx, undefined);
      if (limited) await limited;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.status = error.status;
      setHeaders(ctx, error.headers);
      ctx.body = { error: error.message, code: error.code };
      return;
    }
    await next();
  };
}
