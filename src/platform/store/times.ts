/**
 * A time as the store keeps it: ISO-8601 UTC to the whole second (the
 * fraction dropped, written `.000Z` as `toISOString()` writes it), as the
 * platform's `DATETIME` columns keep dates. A page handle carries a date to
 * the second: a stored fraction would put posts of the same second on both
 * sides of it (skipped, or answered again).
 */
export function storedTime(at: Date): string {
  return new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString();
}
