import { randomBytes } from 'node:crypto';
import { ApiError } from '../../../platform/answers/errors.js';
import type { ConcurrencyGate } from '../../../platform/ops/concurrencyGate.js';
import { onFirstSuccess } from '../../../platform/onFirstUse.js';
import { weakPassword, wrongPassword } from '../errors.js';
import type { FlowDeps, Passwords } from './deps.js';
import { hashPassword, verifyPassword } from '../domain/password.js';
import { passwordWeakness } from '../domain/passwordPolicy.js';

/**
 * The decoy hash of each cost, made once per process (every app built in it shares it: a random password's
 * hash is nobody's secret, and at the default cost it takes 128 MiB and hundreds of milliseconds).
 */
const decoys = new Map<number, () => Promise<string>>();

/** Hashes at `cost` (scrypt's log2 N), every hash and check through `gate`; none made or checked below `floor`. */
export function gatedPasswords(gate: ConcurrencyGate, cost: number, floor: number): Passwords {
  const hash = (password: string) => gate(() => hashPassword(password, cost, floor));
  const decoy = () => {
    let made = decoys.get(cost);
    // A hash the gate turned away (or that failed) is made again by the next log-in that needs it.
    if (!made) decoys.set(cost, (made = onFirstSuccess(() => hash(randomBytes(16).toString('hex')))));
    return made();
  };
  return { hash, verify: (password, stored) => gate(() => verifyPassword(password, stored, floor)), decoy };
}

/**
 * A hash the password gate turns away (503, too many at once) is nobody's attempt: the points it took
 * (the client address's, and the email address's from it when counted) go back, so a flood from one
 * address cannot use up a neighbour's attempts.
 */
export const unlessTurnedAway = <T>(
  deps: Pick<FlowDeps, 'throttle'>,
  ip: string,
  email: string | undefined,
  hashing: Promise<T>,
): Promise<T> =>
  hashing.catch(async (error: unknown) => {
    if (error instanceof ApiError && error.status === 503) await deps.throttle.turnedAway(ip, email);
    throw error;
  });

/** The stored hash of a new password, asked for from `ip` (its points back when the gate turns it away). */
export const hashNewPassword = (
  deps: Pick<FlowDeps, 'throttle' | 'passwords'>,
  ip: string,
  password: string,
): Promise<string> => unlessTurnedAway(deps, ip, undefined, deps.passwords.hash(password));

/** Refuses a new password that is easy to guess (400 `weak_password`, saying why). */
export async function refuseWeakPassword(password: string, email: string): Promise<void> {
  const weakness = await passwordWeakness(password, email);
  if (weakness) throw weakPassword(weakness);
}

/** The signed-in account's password, asked for again: counted like a log-in of its address from this client. */
export async function checkCurrentPassword(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords'>,
  session: { email: string },
  password: string,
  ip: string,
): Promise<void> {
  await deps.throttle.admitLogIn(session.email, ip);
  const credentials = await deps.store.findCredentials(session.email);
  if (
    !credentials ||
    !(await unlessTurnedAway(deps, ip, session.email, deps.passwords.verify(password, credentials.passwordHash)))
  ) {
    throw wrongPassword();
  }
  await deps.throttle.succeeded(ip, session.email);
}
