/**
 * Lets the event loop serve what waits (timers, connections, other
 * requests) before the caller's next step: what a computation whose steps
 * are each bounded awaits between two, so that no request holds the loop
 * for the sum of its steps (docs/operations.md#bounded-work).
 */
export const served = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
