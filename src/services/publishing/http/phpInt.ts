/**
 * PHP's `(int)` of a value. In a module of its own (no imports) so that the
 * mock's paging (scripts/mock/pages.ts) shares it without the casting step's
 * form parsing.
 */
export function phpInt(value: unknown): number {
  if (typeof value === 'number')
    return Number.isNaN(value)
      ? 0
      : Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(value)));
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const number = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(value)?.[0];
    if (number === undefined) return 0;
    // Past 64 bits PHP gives its largest integer; here the largest safe one (either is past every bound).
    const parsed = Math.trunc(Number(number));
    return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, parsed));
  }
  if (Array.isArray(value)) return value.length ? 1 : 0;
  return value && typeof value === 'object' ? 1 : 0;
}
