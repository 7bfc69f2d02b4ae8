import sharp from 'sharp';
import type { KeyIssued } from '../../generated/developer/types.gen.js';
import { personOf, tokenThroughFlow } from '../accounts/oauth/support.js';
import { GOOD_PASSWORD } from '../services/developer/support/dashboard.js';
import { credentialsOf, issueCredential, publishingToken } from '../support/credentials.js';
import type { TestServer } from '../support/server.js';
import type { BothStores, On } from '../support/store-reach.js';
import { SESSION_ENDS, type FuzzTarget } from './targets.js';

/** The demo site the publishing examples name, and the post whose autosave `getPostAutosave`'s example reads. */
const SITE = 'demo.example.com';
const POST = '101';

/** What one server holds for the focused requests to name: its terms' slugs, an uploaded file, an application. */
interface Made {
  category: string;
  tag: string;
  /** A tag of its own for `deleteTaxonomyTerm`: `deleteTag`'s valid request deletes the other. */
  term: string;
  file: { site_ID: string; folder: string; file: string };
  /** A post and a file for the deletions of one (the examples' are bulk-deleted before them). */
  post: string;
  media: string;
  /** An application of the dashboard caller's, and its key. */
  application: { applicationId: string; keyId: string };
}

/**
 * What the contract's examples cannot name on a test server, made alike on both servers of a file
 * (`startOnBothStores`): a category, two tags, an autosave of the example post, an uploaded file, a post and a file
 * to delete, and an application of the dashboard caller's (`developer`, each store's). Answers each operation's
 * path values and body fields (`of`, for `focusedRequestFor`'s `known`: SQLite's values) and the values that differ
 * between the two servers (`pairs`, SQLite's then PostgreSQL's: a file's random folder and name, an application's
 * ID), to translate a request sent to SQLite for PostgreSQL.
 */
export async function knownOnBoth(
  stores: BothStores,
  developer: (store: 'sqlite' | 'postgres') => Record<string, string>,
) {
  const sqlite = await makeOn(stores.sqlite, developer('sqlite'));
  const postgres = await makeOn(stores.postgres, developer('postgres'));
  const flat = (made: Made) => [
    made.category,
    made.tag,
    made.term,
    ...Object.values(made.file),
    made.post,
    made.media,
    ...Object.values(made.application),
  ];
  const theirs = flat(postgres);
  const pairs = flat(sqlite).flatMap((ours, index): [string, string][] =>
    ours === theirs[index] ? [] : [[ours, theirs[index]!]],
  );
  const byOperation: Record<string, Record<string, string>> = {
    ...Object.fromEntries(
      ['getCategoryBySlug', 'updateCategory', 'deleteCategory'].map((id) => [id, { term_slug: sqlite.category }]),
    ),
    ...Object.fromEntries(
      ['getTagBySlug', 'updateTag', 'deleteTag', 'getTaxonomyTerm', 'updateTaxonomyTerm'].map((id) => [
        id,
        { term_slug: sqlite.tag, taxonomy: 'post_tag' },
      ]),
    ),
    deleteTaxonomyTerm: { term_slug: sqlite.term, taxonomy: 'post_tag' },
    listPostTypeTaxonomies: { post_type: 'post' },
    getMediaFile: sqlite.file,
    deletePost: { post_ID: sqlite.post },
    deleteMedia: { media_ID: sqlite.media },
    ...Object.fromEntries(
      ['rotateApplicationKey', 'getOAuthClient', 'setOAuthClient', 'deleteApplication', 'revokeApiKey'].map((id) => [
        id,
        sqlite.application,
      ]),
    ),
  };
  // The dashboard caller's password (`issueCredential.developer` signs up with it), where the operation asks for it.
  const password = GOOD_PASSWORD;
  const bodies: Record<string, Record<string, unknown>> = {
    requestEmailChange: { password },
    changePassword: { current_password: password },
    deleteAccount: { password },
    // A name no term has yet: the example's is taken (the first request that passes takes this one).
    createCategory: { name: 'Fuzz new category' },
    createTag: { name: 'Fuzz new tag' },
  };
  return {
    pairs,
    /** A path (or any text) sent to SQLite, with PostgreSQL's values where they differ. */
    translated: (text: string) => pairs.reduce((done, [ours, theirs]) => done.replaceAll(ours, theirs), text),
    /** `focusedRequestFor`'s `known` of an operation: its path values and body fields. */
    of: (target: FuzzTarget) => ({
      path: byOperation[target.operation.operationId] ?? {},
      body: bodies[target.operation.operationId] ?? {},
    }),
  };
}

async function makeOn(server: TestServer, developer: Record<string, string>): Promise<Made> {
  const authorization = `Bearer ${await publishingToken(server, 'admin')}`;
  const rest = async (path: string, body: FormData | Record<string, unknown>) => {
    const form = body instanceof FormData;
    const response = await fetch(`${server.url}/rest/v1.1/sites/${SITE}${path}`, {
      method: 'POST',
      headers: { authorization, ...(form ? {} : { 'content-type': 'application/json' }) },
      body: form ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const slugOf = async (kind: 'categories' | 'tags', name: string) =>
    String((await rest(`/${kind}/new`, { name })).slug);
  await rest(`/posts/${POST}/autosave`, { title: 'Fuzz', content: 'Autosaved.' });
  const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#39c' } })
    .png()
    .toBuffer();
  /** A new file of the photo: the site's first answer for it. */
  const upload = async (name: string) => {
    const form = new FormData();
    form.append('media[]', new Blob([new Uint8Array(photo)], { type: 'image/png' }), name);
    return ((await rest('/media/new', form)).media as { ID: number; URL: string }[])[0]!;
  };
  const [, , site_ID, folder, file] = new URL((await upload('fuzz.png')).URL).pathname.split('/');
  const post = String((await rest('/posts/new', { title: 'Fuzz', content: 'To delete.' })).ID);
  const media = String((await upload('fuzz-delete.png')).ID);
  const created = await fetch(`${server.url}/developer/v1/applications`, {
    method: 'POST',
    headers: { ...developer, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fuzz app', description: 'Fuzzed.', website_url: 'https://fuzz.example.com' }),
  });
  if (created.status !== 201) throw new Error(`createApplication answered ${created.status}: ${await created.text()}`);
  const issued = (await created.json()) as KeyIssued;
  return {
    post,
    media,
    application: { applicationId: issued.application.id, keyId: issued.new_key.id },
    category: await slugOf('categories', 'Fuzz category'),
    tag: await slugOf('tags', 'Fuzz tag'),
    term: await slugOf('tags', 'Fuzz term'),
    file: { site_ID: site_ID!, folder: folder!, file: file! },
  };
}

/**
 * Each store's server's credential headers for each service (`credentialsOf`), and, for each target at the path of
 * an operation that ends the session it is sent with (`DELETE /session`, a log-in, the account's deletion), a
 * dashboard session of its own, under its operation's ID: a valid request there, or one with that path's other
 * method, would end the session every other target uses. `of` answers a target's credential on a store.
 */
export async function credentialsFor(stores: BothStores, targets: readonly FuzzTarget[]) {
  const credentials = await credentialsOf({ sqlite: stores.sqlite, postgres: stores.postgres });
  const endingPaths = new Set(
    targets
      .filter((target) => SESSION_ENDS.includes(target.operation.operationId))
      .map((target) => `${target.service.name} ${target.operation.path}`),
  );
  const ownSession = (target: FuzzTarget) => endingPaths.has(`${target.service.name} ${target.operation.path}`);
  for (const target of targets.filter(ownSession))
    for (const store of ['sqlite', 'postgres'] as const)
      credentials[store].set(target.operation.operationId, await issueCredential.developer!(stores[store]));
  // The profile API's `/me` operations take an OAuth token of the profile scope (alex's, to an app), not an API key.
  const byToken = (target: FuzzTarget) =>
    target.service.name === 'profiles' && target.operation.securitySchemes.includes('oauth');
  if (targets.some(byToken))
    for (const store of ['sqlite', 'postgres'] as const)
      credentials[store].set(OAUTH, {
        authorization: `Bearer ${await tokenThroughFlow(stores[store], await personOf(stores[store], 'alex@example.com'), 'profile')}`,
      });
  return {
    credentials,
    of: (store: On['store'], target: FuzzTarget) =>
      credentials[store].get(
        byToken(target) ? OAUTH : ownSession(target) ? target.operation.operationId : target.service.name,
      ),
  };
}

/** Where `credentialsFor` keeps each store's profile-scope OAuth token. */
const OAUTH = 'profiles:oauth';
