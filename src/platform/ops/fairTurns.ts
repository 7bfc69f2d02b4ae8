/**
 * Turns at costly work (a search over long texts), one at a time in the
 * process and fair between callers: a caller (a client address, an IPv6
 * address by its /64: `rateLimitClient`) waits with at most one piece of
 * work at a time; another that it sends while one of its own waits is
 * refused at once. Whoever waits is served in the order they came, so a
 * caller that floods holds one place in the line, not the line: every
 * other caller waits at most one turn per caller ahead of it. Work waits at
 * most the time it is given, then is refused (docs/operations.md#bounded-work).
 */
export interface FairTurns {
  /**
   * Waits for the turn (at most `waitMs`) as `caller`; resolves with the
   * function that passes the turn on, which the caller must call when done.
   * Rejects with `busy(reason)` when the caller already waits, or when the
   * wait runs out.
   */
  take(caller: string, waitMs: number): Promise<() => void>;
}

export function fairTurns(busy: (reason: string) => Error): FairTurns {
  let taken = false;
  const line: { caller: string; start: () => void }[] = [];
  const waitingCallers = new Set<string>();

  const pass = () => {
    const next = line.shift();
    if (!next) {
      taken = false;
      return;
    }
    waitingCallers.delete(next.caller);
    next.start();
  };
  /** The pass for one turn: calling it again does nothing. */
  const passOnce = () => {
    let passed = false;
    return () => {
      if (passed) return;
      passed = true;
      pass();
    };
  };

  return {
    take(caller, waitMs) {
      if (!taken) {
        taken = true;
        return Promise.resolve(passOnce());
      }
      if (waitingCallers.has(caller)) return Promise.reject(busy('this caller already waits for a turn'));
      waitingCallers.add(caller);
      return new Promise((resolve, reject) => {
        const place = {
          caller,
          start: () => {
            clearTimeout(timer);
            resolve(passOnce());
          },
        };
        const timer = setTimeout(
          () => {
            line.splice(line.indexOf(place), 1);
            waitingCallers.delete(caller);
            reject(busy(`waited past ${waitMs} ms for a turn`));
          },
          Math.max(0, waitMs),
        );
        line.push(place);
      });
    },
  };
}
