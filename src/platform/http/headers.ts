import type { Context } from 'koa';

/**
 * Response headers written straight to Node's response. Koa 3's `ctx.set`
 * makes arrays and lower-cases every name on each call, and `ctx.vary`
 * parses the header again: on the profile lookup, which writes a dozen
 * headers, that was a fifth of the pipeline's time. Like `ctx.set`, nothing
 * is written once the headers are sent.
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

/**
 * Adds a field to `Vary` (as the `vary` package does: once, any letter
 * case, and nothing after `*`).
 */
export function varyOn(ctx: Context, field: string): void {
  const res = ctx.res;
  if (res.headersSent) return;
  const current = res.getHeader('Vary');
  if (current === undefined || current === '') {
    res.setHeader('Vary', field);
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  const wanted = field.toLowerCase();
  for (const token of text.split(',')) {
    const present = token.trim().toLowerCase();
    if (present === '*' || present === wanted) return;
  }
  res.setHeader('Vary', `${text}, ${field}`);
}
