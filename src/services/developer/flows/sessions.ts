import { normalizeEmail } from '../../../accounts/email.js';
import { invalidCredentials, sessionNotFound } from '../errors.js';
import { unlessTurnedAway } from './credentials.js';
import type { FlowDeps } from './deps.js';
import {
  csrfTokenFor,
  hashSessionToken,
  idleSince,
  isWellFormedSessionToken,
  issueSessionToken,
  sessionIdOf,
} from '../domain/sessionToken.js';

/** A live dashboard session, resolved from the session cookie. */
export interface ActiveSession {
  tokenHash: string;
  accountId: string;
  email: string;
  /** Whether the account's address is verified (applications need it). */
  emailVerified: boolean;
  expiresAt: string;
  /** The token `X-CSRF-Token` must carry on calls that change something. */
  csrfToken: string;
}

/** A session just started: its token (for the cookie, never stored) and what the answer shows of it. */
export interface StartedSession {
  token: string;
  session: Pick<ActiveSession, 'email' | 'emailVerified' | 'csrfToken' | 'expiresAt'>;
}

/** One of an account's sessions as its list shows it: by its public id (never its token or hash). */
export interface ListedSession {
  id: string;
  createdAt: string;
  expiresAt: string;
  /** The session that asks. */
  current: boolean;
}

/** The session a cookie's token names; an expired, ended, idle or malformed one is none. */
export async function resolveSession(
  deps: Pick<FlowDeps, 'store' | 'sessionIdleSeconds'>,
  token: string,
): Promise<ActiveSession | null> {
  if (!isWellFormedSessionToken(token)) return null;
  const session = await deps.store.findSession(hashSessionToken(token), idleSince(deps.sessionIdleSeconds));
  return session ? { ...session, csrfToken: csrfTokenFor(token) } : null;
}

/**
 * Starts a session for an account: a fresh token (never the one the
 * browser may already hold, `presented`, which is ended: no session
 * fixation), kept hashed.
 */
async function startSession(
  deps: Pick<FlowDeps, 'store' | 'sessionTtlSeconds'>,
  presented: string | undefined,
  account: { accountId: string; email: string; emailVerified: boolean },
): Promise<StartedSession> {
  if (presented) await deps.store.deleteSession(hashSessionToken(presented));
  const { token, tokenHash } = issueSessionToken();
  const expiresAt = new Date(Date.now() + deps.sessionTtlSeconds * 1000).toISOString();
  await deps.store.createSession({ tokenHash, accountId: account.accountId, expiresAt });
  return {
    token,
    session: { email: account.email, emailVerified: account.emailVerified, csrfToken: csrfTokenFor(token), expiresAt },
  };
}

/** "Log in": the same refusal for an unknown address and a wrong password; attempts counted per address and client. */
export async function logIn(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords' | 'sessionTtlSeconds' | 'sessionIdleSeconds' | 'welcome'>,
  request: { email: string; password: string; ip: string; presented: string | undefined },
): Promise<StartedSession> {
  const { store, throttle, passwords } = deps;
  const email = normalizeEmail(request.email);
  await throttle.admitLogIn(email, request.ip);
  const credentials = await store.findCredentials(email);
  const stored = credentials ? Promise.resolve(credentials.passwordHash) : passwords.decoy();
  const matches = await unlessTurnedAway(
    deps,
    request.ip,
    email,
    stored.then((hash) => passwords.verify(request.password, hash)),
  );
  if (!credentials || !matches) throw invalidCredentials();
  await throttle.succeeded(request.ip, email);
  // Housekeeping on a path that is rare and already slow (the password hash): nothing expired is kept.
  await Promise.all([store.deleteExpiredSessions(idleSince(deps.sessionIdleSeconds)), throttle.forgetEnded()]);
  const emailVerified = await store.isEmailVerified(credentials.accountId);
  // The real platform makes a site with the account; here the first log-in does (and any later one that finds none).
  await deps.welcome({ id: credentials.accountId, email });
  return startSession(deps, request.presented, { accountId: credentials.accountId, email, emailVerified });
}

/** "Log out": the session ends at once, whatever the browser does with the cookie. */
export async function logOut(deps: Pick<FlowDeps, 'store'>, session: Pick<ActiveSession, 'tokenHash'>): Promise<void> {
  await deps.store.deleteSession(session.tokenHash);
}

/** The account's live sessions, newest first, the one that asks marked. */
export async function listSessions(
  deps: Pick<FlowDeps, 'store'>,
  current: Pick<ActiveSession, 'accountId' | 'tokenHash'>,
): Promise<ListedSession[]> {
  const sessions = await deps.store.listSessions(current.accountId);
  return sessions.map((session) => ({
    id: sessionIdOf(session.tokenHash),
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    current: session.tokenHash === current.tokenHash,
  }));
}

/** "End a session": any of the account's own, found by its public id. */
export async function endSession(deps: Pick<FlowDeps, 'store'>, accountId: string, sessionId: string): Promise<void> {
  const session = (await deps.store.listSessions(accountId)).find(
    (candidate) => sessionIdOf(candidate.tokenHash) === sessionId,
  );
  if (!session) throw sessionNotFound();
  await deps.store.deleteSession(session.tokenHash);
}
