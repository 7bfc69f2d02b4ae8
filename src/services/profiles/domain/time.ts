/** A moment as the profiles store and API write it: ISO-8601 UTC to the second (`2026-10-01T12:00:00Z`). */
export const utcSeconds = (moment: Date): string => moment.toISOString().replace(/\.\d{3}Z$/, 'Z');
