import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../src/accounts/apiKey.js';
import { createKyselyProfilesStore } from '../../src/services/profiles/store/kyselyProfilesStore.js';
import { issueAccessToken } from '../../src/services/publishing/domain/accessTokens.js';
import { createKyselyPublishingStore } from '../../src/services/publishing/store/kyselyPublishingStore.js';
import { sendRequest } from './http.js';
import { createKyselyDeveloperStore } from '../../src/services/developer/store/kyselyDeveloperStore.js';
import { accountSites } from '../../src/services/publishing/store/accountSites.js';
import type { TestServer } from './server.js';
import { GOOD_PASSWORD } from '../services/developer/support/dashboard.js';

/**
 * The request headers of a valid caller, per service: a profiles API key and
 * a publishing access token issued through the services' own stores (as the
 * admin command line does), a dashboard session from a real sign-up.
 * Services missing here are only called with made-up credentials.
 */
export const issueCredential: Record<string, (server: TestServer) => Promise<Record<string, string>>> = {
  /** A profiles API key of a developer application. */
  async profiles(server) {
    const issued = issueApiKey();
    await createKyselyProfilesStore(server.built.db).createApiKey({
      email: 'robustness@example.com',
      application: { name: 'Robustness', description: '', websiteUrl: '' },
      key: { hash: issued.hash, displayPrefix: issued.displayPrefix },
    });
    return { authorization: `Bearer ${issued.key}` };
  },
  /** A publishing access token of the demo site's administrator. */
  async publishing(server) {
    return { authorization: `Bearer ${await publishingToken(server, 'admin')}` };
  },
  /** A dashboard session (cookie and CSRF token) of a new account, signed up and logged in as a browser would. */
  async developer(server) {
    const body = JSON.stringify({
      email: `robustness-${randomUUID()}@example.com`,
      password: GOOD_PASSWORD,
    });
    const headers = { 'content-type': 'application/json' };
    const signUp = await patiently(() =>
      sendRequest(server.url, { method: 'POST', path: '/developer/v1/accounts', headers, body }),
    );
    if (signUp.status !== 202) throw new Error(`sign-up failed: ${signUp.status} ${signUp.text}`);
    // Verified through the store module, as following the emailed link would: applications need it.
    const store = createKyselyDeveloperStore(server.built.db, accountSites(server.built.db));
    const account = await store.findCredentials(JSON.parse(body).email as string);
    if (account) await store.markEmailVerified(account.accountId);
    const answer = await patiently(() =>
      sendRequest(server.url, { method: 'POST', path: '/developer/v1/session', headers, body }),
    );
    const session = /^dev_session=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
    if (answer.status !== 200 || !session) throw new Error(`log-in failed: ${answer.status} ${answer.text}`);
    return {
      cookie: `dev_session=${session}`,
      'x-csrf-token': (JSON.parse(answer.text) as { csrf_token: string }).csrf_token,
    };
  },
};

/**
 * Sends again after a 503's `Retry-After`, as a client would: the password gate refuses a hash it
 * cannot start soon, and tests that sign up concurrently on a loaded machine meet it.
 */
async function patiently(send: () => Promise<Awaited<ReturnType<typeof sendRequest>>>) {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    const wait = Number(answer.headers.get('retry-after'));
    if (answer.status !== 503 || !Number.isFinite(wait) || attempt === 10) return answer;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** A publishing access token for a demo user (by login). */
export async function publishingToken(server: TestServer, login: string): Promise<string> {
  const store = createKyselyPublishingStore(server.built.db);
  const user = await store.findUserByLogin(login);
  if (!user) throw new Error(`no demo user ${login}`);
  const issued = issueAccessToken();
  await store.createAccessToken({ id: issued.id, tokenHash: issued.tokenHash, userId: user.id, createdAt: new Date() });
  return issued.token;
}

/** A valid caller's headers for each service, on each of the servers given (by store): what `issueCredential` issues. */
export async function credentialsOf<Store extends string>(
  servers: Readonly<Record<Store, TestServer>>,
): Promise<Record<Store, Map<string, Record<string, string> | undefined>>> {
  const entries = await Promise.all(
    (Object.entries(servers) as [Store, TestServer][]).map(async ([store, server]) => {
      const issued = await Promise.all(
        server.built.services.map(async (s) => [s.name, await issueCredential[s.name]?.(server)] as const),
      );
      return [store, new Map(issued)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Store, Map<string, Record<string, string> | undefined>>;
}
