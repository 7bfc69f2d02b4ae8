import type { Context } from 'koa';
import vary from 'vary';

/**
 * Response headers written straight to Node's response: Koa 3's `ctx.set`
 * makes arrays and lower-cases every name on each call, on every request of
 * the hot paths (see docs/decisions/headers-written-directly.md). Like
 * `ctx.set`, nothing is written once the headers are sent.
 */
export function setHeaders(ctx: Context, headers: Readonly<Record<string, string>>): void {
  const res = ctx.res;
  if (res.headersSent) return;
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/** One header (see `setHeaders`). */
export function setHeader(ctx: Context, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}

/** Adds a field to `Vary` with the `vary` package (once, any letter case, nothing after `*`), before the headers are sent. */
export function varyOn(ctx: Context, field: string): void {
  if (!ctx.res.headersSent) vary(ctx.res, field);
}

/**
 * An admit step or presenter that writes the headers `N` on the answers of
 * its operations that the contract requires them on (`writes` names them):
 * a policy table entry with it lets the operation's handler leave them out.
 */
export interface Writes<N extends string> {
  readonly writes: { readonly [Name in N]: true };
}
