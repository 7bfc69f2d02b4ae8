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

/**
 * A stored ISO-8601 UTC time as the API writes dates: seconds precision with
 * an explicit offset (`2015-04-13T10:00:00+00:00`).
 */
export function apiDate(stored: string): string {
  // What the store writes (`toISOString()`) is already that time in UTC: only the offset changes.
  if (STORED_UTC.test(stored)) return `${stored.slice(0, 19)}+00:00`;
  return new Date(stored).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** An ISO-8601 UTC time as `toISOString()` writes it (fractions optional), with a day each month has. */
const STORED_UTC =
  /^\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;
