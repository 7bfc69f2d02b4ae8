import type { IncomingHttpHeaders } from 'node:http';
import vary from 'vary';

/** The headers of an answer on their way out, as Node's response holds them. */
export interface AnswerHeaders {
  readonly headersSent: boolean;
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
}

/**
 * What writing an answer takes of a request's context: the request's
 * method, parsed query, headers and what earlier steps noted on it (`state`),
 * and the answer's status, headers and body. Koa's `Context` is one; so is
 * anything else that collects an answer (the mock presents its answers with
 * the services' own presenters through one, `scripts/mock/front.ts`), so a
 * presenter that read more of Koa would not compile rather than break there.
 */
export interface AnswerContext {
  readonly method: string;
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly state: Readonly<Record<string, unknown>>;
  readonly req: { readonly method?: string; readonly headers: IncomingHttpHeaders };
  readonly res: AnswerHeaders;
  status: number;
  body: unknown;
}

/**
 * Response headers written straight to Node's response: Koa 3's `ctx.set`
 * makes arrays and lower-cases every name on each call, on every request of
 * the hot paths (see docs/decisions/headers-written-directly.md). Like
 * `ctx.set`, nothing is written once the headers are sent.
 */
export function setHeaders(ctx: { readonly res: AnswerHeaders }, headers: Readonly<Record<string, string>>): void {
  const res = ctx.res;
  if (res.headersSent) return;
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/** One header (see `setHeaders`). */
export function setHeader(ctx: { readonly res: AnswerHeaders }, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}

/** `Vary` values already worked out: field -> the value before -> the value after (no key to build per call). */
const varied = new Map<string, Map<string, string>>();
/** The most fields, and values per field, kept: they come from the services' own code, a handful; a bound all the same. */
const VARIED_KEPT = 64;

/**
 * Adds a field to `Vary` as the `vary` package does (once, any letter case,
 * nothing after `*`), before the headers are sent. The answers of a hot path
 * add the same fields to the same value every time: the outcome of each
 * (value, field) is worked out once by `vary.append` and then reused.
 */
export function varyOn(ctx: { readonly res: AnswerHeaders }, field: string): void {
  const res = ctx.res;
  if (res.headersSent) return;
  const current = res.getHeader('Vary');
  // A list of values (written by hand) is joined the way `vary` does it, every time.
  if (current !== undefined && typeof current !== 'string') {
    const joined = vary.append(Array.isArray(current) ? current.join(', ') : String(current), field);
    res.setHeader('Vary', joined);
    return;
  }
  const before = current ?? '';
  let byValue = varied.get(field);
  let after = byValue?.get(before);
  if (after === undefined) {
    after = vary.append(before, field);
    if (!byValue && varied.size < VARIED_KEPT) varied.set(field, (byValue = new Map()));
    if (byValue && byValue.size < VARIED_KEPT) byValue.set(before, after);
  }
  if (after !== before) res.setHeader('Vary', after);
}

/**
 * An admit step or presenter that writes the headers `N` on the answers of
 * its operations that the contract requires them on (`writes` names them):
 * a policy table entry with it lets the operation's handler leave them out.
 */
export interface Writes<N extends string> {
  readonly writes: { readonly [Name in N]: true };
}
