/**
 * A stored ISO-8601 UTC time as the API writes dates: seconds precision with
 * an explicit offset (`2015-04-13T10:00:00+00:00`).
 */
export function apiDate(stored: string): string {
  return new Date(stored).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
