import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { KeyIssued } from '../../generated/developer/types.gen.js';
import { hashSessionToken, sessionIdOf } from '../../src/services/developer/domain/sessionToken.js';
import { authorizedCallback, inBrowser, pendingConsent, personOf, registeredApp } from '../accounts/oauth/support.js';
import { GOOD_PASSWORD, signedUpUser, uniqueEmail } from '../services/developer/support/dashboard.js';
import type { Mailbox } from '../services/developer/support/mailbox.js';
import type { TestServer } from '../support/server.js';

/** What one request of an operation is sent with on top of its largest valid input (all optional). */
export interface Parts {
  /** Path parameters naming what exists here (the contract's examples name nothing on a test server). */
  path?: Record<string, string>;
  /** Query values that the contract cannot say are valid: a post type, an ISO date, an ID of a list. */
  query?: Record<string, string>;
  /** The body's fields, from the largest body: a password that is the account's, a name no other request took. */
  body?: (largest: Record<string, unknown>) => Record<string, unknown>;
  /** The caller's headers instead of the service's credential: a session of its own, a browser's cookies. */
  headers?: Record<string, string>;
}

/**
 * How an operation reaches its work with its largest input, not a refusal: `parts` for every request, or `each`
 * for a request that uses up what it names (a token redeemed, a name taken, a session ended, a thing deleted):
 * made anew for every request sent, before the measure.
 */
export type Preparation = Parts | { each: () => Promise<Parts> };

type Person = Awaited<ReturnType<typeof personOf>>;

/** A name no request took before, at most `length` characters, the rest of `largest` after it. */
const unique = (largest: unknown, length = 200) =>
  `${randomUUID().slice(0, 8)} ${typeof largest === 'string' ? largest : ''}`.slice(0, length).trim();

/**
 * What each operation of the three services needs beyond its contract, made on `server`: a post with an autosave,
 * a category and a tag, an uploaded photo, an application of the developer's, an OAuth app alex authorized, and,
 * for what a request uses up, one of each for every request. `developer` is the cost test's dashboard caller (its
 * session's headers); `mailbox` receives the server's mail (its links' tokens).
 */
export async function preparations(
  server: TestServer,
  publishing: Record<string, string>,
  developer: Record<string, string>,
  alex: Person,
  mailbox: Mailbox,
): Promise<Record<string, Preparation>> {
  const site = 'demo.example.com';
  const rest = (path: string, init: { body?: unknown; form?: FormData } = {}) =>
    call(`${server.url}/rest/v1.1/sites/${site}${path}`, {
      method: 'POST',
      headers: { ...publishing, ...(init.form ? {} : { 'content-type': 'application/json' }) },
      body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
  const dashboard = (path: string, init: { body?: unknown; headers?: Record<string, string> }) =>
    call(`${server.url}/developer/v1${path}`, {
      method: 'POST',
      headers: { ...(init.headers ?? developer), 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  const newPost = async () => String((await rest('/posts/new', { body: { title: 'Cost', content: 'Cost.' } })).ID);
  const newTerm = async (kind: 'categories' | 'tags') =>
    String((await rest(`/${kind}/new`, { body: { name: unique('cost term', 60) } })).slug);
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#39c' } })
    .png()
    .toBuffer();
  const newMedia = async () => {
    const form = new FormData();
    form.append('media[]', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'cost.png');
    const item = ((await rest('/media/new', { form })).media as { ID: number; URL: string }[])[0]!;
    return { id: String(item.ID), url: new URL(item.URL) };
  };
  const newApplication = async () =>
    (await dashboard('/applications', {
      body: { name: unique('Cost app', 60), description: 'Cost.', website_url: 'https://cost.example.com' },
    })) as unknown as KeyIssued;
  /**
   * A new session of `email`'s account (`personOf`): its headers and ID. An account keeps its 20 newest sessions, so
   * the sessions that requests end are of an account of their own, not alex's.
   */
  const sessionOf = async (email: string) => {
    const person = await personOf(server, email);
    return { id: sessionIdOf(hashSessionToken(person.cookie()!)), headers: headersOf(person) };
  };
  /** A dashboard caller's session as request headers: its cookie and CSRF token. */
  const headersOf = (caller: { cookie(): string | undefined; csrf: { 'X-CSRF-Token': string } }) => ({
    cookie: `dev_session=${caller.cookie()}`,
    'x-csrf-token': caller.csrf['X-CSRF-Token'],
  });
  /** An authorization request of `app` waiting for alex's answer: its consent ID and the browser's cookies with alex's session. */
  const consentOf = async (app: Awaited<ReturnType<typeof registeredApp>>) => {
    const { consentId, browser } = await pendingConsent(server, app, 'profile');
    return { consentId, headers: { ...headersOf(alex), cookie: inBrowser(alex, browser) } };
  };

  const autosaved = await newPost();
  await rest(`/posts/${autosaved}/autosave`, { body: { title: 'Cost', content: 'Autosaved.' } });
  const [category, tag, media, application, app] = [
    await newTerm('categories'),
    await newTerm('tags'),
    await newMedia(),
    await newApplication(),
    await registeredApp(server),
  ];
  const [, , siteId, folder, file] = media.url.pathname.split('/');
  const waiting = await consentOf(app);
  const ending = await signedUpUser(server);

  /** A window of dates holding every post and file. */
  const dates = { after: '2000-01-01T00:00:00Z', before: '2100-01-01T00:00:00Z' };
  const posts = {
    ...dates,
    modified_after: dates.after,
    modified_before: dates.before,
    type: 'post',
    status: 'publish,draft,pending,private,future',
  };

  return {
    // Profiles.
    searchProfilesByVerifiedAccount: { query: { service: 'github' } },
    getQrCodeBySha256Hash: { query: { version: '40', type: 'user' } },
    // Publishing.
    listPosts: { query: posts },
    listPostsV12: { query: posts },
    listPostTypeTaxonomies: { path: { post_type: 'post' } },
    getPostAutosave: { path: { post_ID: autosaved } },
    listMedia: { query: dates },
    getMediaFile: { path: { site_ID: siteId!, folder: folder!, file: file! } },
    ...Object.fromEntries(
      [
        ['createCategory', 'createTag', 'createTaxonomyTerm'].map((id) => [
          id,
          {
            each: async () => ({
              body: (largest: Record<string, unknown>) => ({ ...largest, name: unique(largest.name) }),
            }),
          },
        ]),
        ['getCategoryBySlug', 'updateCategory'].map((id) => [id, { path: { term_slug: category } }]),
        ['getTagBySlug', 'updateTag', 'getTaxonomyTerm', 'updateTaxonomyTerm'].map((id) => [
          id,
          { path: { term_slug: tag, taxonomy: 'post_tag' } },
        ]),
      ].flat(),
    ),
    deletePost: { each: async () => ({ path: { post_ID: await newPost() } }) },
    deleteCategory: { each: async () => ({ path: { term_slug: await newTerm('categories') } }) },
    deleteTag: { each: async () => ({ path: { term_slug: await newTerm('tags') } }) },
    deleteTaxonomyTerm: { each: async () => ({ path: { term_slug: await newTerm('tags'), taxonomy: 'post_tag' } }) },
    deleteMedia: { each: async () => ({ path: { media_ID: (await newMedia()).id } }) },
    // The developer dashboard.
    createApplication: {
      each: async () => ({ body: (largest: Record<string, unknown>) => ({ ...largest, name: unique(largest.name) }) }),
    },
    rotateApplicationKey: { path: { applicationId: application.application.id } },
    getOAuthClient: { path: { applicationId: application.application.id } },
    setOAuthClient: { path: { applicationId: application.application.id } },
    deleteApplication: { each: async () => ({ path: { applicationId: (await newApplication()).application.id } }) },
    revokeApiKey: {
      each: async () => {
        const made = await newApplication();
        return { path: { applicationId: made.application.id, keyId: made.new_key.id } };
      },
    },
    // An account of its own for each request: an account is sent a few emails an hour.
    requestEmailChange: {
      each: async () => ({
        headers: headersOf(await signedUpUser(server)),
        body: (largest) => ({ ...largest, password: GOOD_PASSWORD, new_email: uniqueEmail('cost-new') }),
      }),
    },
    confirmEmailChange: {
      each: async () => {
        const user = await signedUpUser(server);
        const to = uniqueEmail('cost-changed');
        await dashboard('/accounts/email', {
          headers: headersOf(user),
          body: { new_email: to, password: GOOD_PASSWORD },
        });
        const { token } = await mailbox.nextLink(to, 'email');
        return { headers: headersOf(user), body: () => ({ token }) };
      },
    },
    verifyEmail: {
      each: async () => {
        const email = uniqueEmail('cost-verify');
        await dashboard('/accounts', { headers: {}, body: { email, password: GOOD_PASSWORD } });
        const { token } = await mailbox.nextLink(email, 'verify');
        return { body: () => ({ token }) };
      },
    },
    resetPassword: {
      each: async () => {
        const user = await signedUpUser(server);
        await dashboard('/password-reset', { headers: {}, body: { email: user.email } });
        const { token } = await mailbox.nextLink(user.email, 'reset');
        return { body: (largest) => ({ ...largest, token }) };
      },
    },
    changePassword: {
      each: async () => ({
        headers: headersOf(await signedUpUser(server)),
        body: (largest) => ({ ...largest, current_password: GOOD_PASSWORD }),
      }),
    },
    deleteAccount: {
      each: async () => ({ headers: headersOf(await signedUpUser(server)), body: () => ({ password: GOOD_PASSWORD }) }),
    },
    logOut: { each: async () => ({ headers: (await sessionOf(ending.email)).headers }) },
    // A session ends itself: the caller of another of the account's sessions would be among the oldest that new ones end.
    endSession: {
      each: async () => {
        const session = await sessionOf(ending.email);
        return { headers: session.headers, path: { sessionId: session.id } };
      },
    },
    getConsentRequest: { path: { consentId: waiting.consentId }, headers: waiting.headers },
    answerConsentRequest: {
      each: async () => {
        const consent = await consentOf(app);
        return { path: { consentId: consent.consentId }, headers: consent.headers, body: () => ({ approve: true }) };
      },
    },
    revokeAuthorization: {
      each: async () => {
        const authorized = await registeredApp(server);
        await authorizedCallback(server, authorized, alex, 'profile', []);
        return { path: { applicationId: authorized.application.application.id }, headers: headersOf(alex) };
      },
    },
  };
}

/** A fixture's request: its JSON answer, or an error naming what failed. */
async function call(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`fixture ${init.method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
