/**
 * Turns at costly work (a search over long texts), one at a time in the
 * process and fair between callers: a caller (a client address, an IPv6
 * address by its /64: `rateLimitClient`) holds at most one place in the
 * line, whatever it sends. Its further pieces of work wait behind its own
 * (at most `MAX_WAITING_PER_CALLER`; past that one is refused at once), and
 * when its turn is over it goes to the back of the line with the next one.
 * So callers take turns round robin: a caller that floods holds one place
 * in the line, not the line, and every other caller waits at most one turn
 * per caller ahead of it. Work waits at most the time it is given, then is
 * refused (docs/operations.md#bounded-work).
 */
export interface FairTurns {
  /**
   * Waits for the turn (at most `waitMs`) as `caller`; resolves with the
   * function that passes the turn on, which the caller must call when done.
   * Rejects with `busy(reason)` when the caller already has
   * `MAX_WAITING_PER_CALLER` pieces waiting, or when the wait runs out.
   */
  take(caller: string, waitMs: number): Promise<() => void>;
}

/** The most pieces of work one caller may have waiting; a client's own concurrent requests wait, a flood is refused. */
export const MAX_WAITING_PER_CALLER = 32;

interface Place {
  start: () => void;
}

export function fairTurns(busy: (reason: string) => Error): FairTurns {
  let taken = false;
  /** The callers with work waiting, in the order their turns come; each once. */
  const line: string[] = [];
  /** Each waiting caller's own work, in the order it came. */
  const waiting = new Map<string, Place[]>();

  const pass = () => {
    const caller = line.shift();
    if (caller === undefined) {
      taken = false;
      return;
    }
    const own = waiting.get(caller)!;
    const next = own.shift()!;
    // More of its own waits: its next turn comes after every caller now in the line.
    if (own.length > 0) line.push(caller);
    else waiting.delete(caller);
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
      const own = waiting.get(caller) ?? [];
      if (own.length >= MAX_WAITING_PER_CALLER) {
        return Promise.reject(busy(`this caller already has ${MAX_WAITING_PER_CALLER} waiting`));
      }
      if (own.length === 0) {
        waiting.set(caller, own);
        line.push(caller);
      }
      return new Promise((resolve, reject) => {
        const place: Place = {
          start: () => {
            clearTimeout(timer);
            resolve(passOnce());
          },
        };
        const timer = setTimeout(
          () => {
            own.splice(own.indexOf(place), 1);
            if (own.length === 0) {
              waiting.delete(caller);
              line.splice(line.indexOf(caller), 1);
            }
            reject(busy(`waited past ${waitMs} ms for a turn`));
          },
          Math.max(0, waitMs),
        );
        own.push(place);
      });
    },
  };
}
