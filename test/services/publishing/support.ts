import { createClient, type Client } from '../../../generated/publishing/client/index.js';
import { recordStatements } from '../../../scripts/bench/statements.js';
import type { Insertable } from 'kysely';
import type { Logger } from 'pino';
import { deletePost, getPost, listPosts, restorePost } from '../../../generated/publishing/sdk.gen.js';
import type {
  DeletePostData,
  GetPostData,
  ListPostsData,
  RestorePostData,
} from '../../../generated/publishing/types.gen.js';
import { NEW_POST_DEFAULTS } from '../../../src/services/publishing/domain/postColumns.js';
import type { PublishingTables } from '../../../src/services/publishing/store/tables.js';
import { createKyselyPublishingStore } from '../../../src/services/publishing/store/kyselyPublishingStore.js';
import type { PublishingStore } from '../../../src/services/publishing/domain/publishingStore.js';
import { contractChecker, contractFetch, type ContractChecker } from '../../support/contract.js';
import { publishingToken } from '../../support/credentials.js';
import { injectFetch } from '../../support/inject.js';
import { startServer, type TestServer } from '../../support/server.js';

/** A server with the publishing demo data, its store, and an SDK client whose every answer is contract-checked. */
export interface PublishingTestServer {
  server: TestServer;
  store: PublishingStore;
  client: Client;
  checker: ContractChecker;
  /** A plain `fetch` that checks every answer against the contract. */
  call: typeof fetch;
  /** Issues a fresh bearer token for a demo user, through the store as `tokens create` does. */
  tokenFor(login: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Settings for a server whose SQL statements a test counts: it remembers a
 * caller's token, the site and the caller's capabilities for the whole
 * file, so the counts do not depend on how long a test takes.
 */
export const CALLERS_REMEMBERED = { ACCESS_TOKEN_CACHE_MS: '600000', SITE_CACHE_MS: '600000' } as const;

/**
 * Starts a server with publishing alone (unless `env.SERVICES` says otherwise: the others cost a start and
 * are not what its tests are about). `call` and `client` hand their requests to the server without a socket
 * (`injectFetch`: the app and the platform's request listeners, no TCP or HTTP parsing), unless
 * `options.wire`; the server listens all the same, at `server.url`, for what is about the wire.
 */
export async function startPublishing(
  env: Record<string, string> = {},
  options: { wire?: boolean; logger?: Logger } = {},
): Promise<PublishingTestServer> {
  const server = await startServer(env, {
    services: ['publishing'],
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const checker = await contractChecker();
  const call = contractFetch(checker, options.wire ? fetch : injectFetch(server.server));
  const store = createKyselyPublishingStore(server.built.db);
  return {
    server,
    store,
    checker,
    call,
    client: createClient({ baseUrl: `${server.url}/rest/v1.1`, fetch: call }),
    tokenFor: (login) => publishingToken(server, login),
    close: () => server.close(),
  };
}

/**
 * Restores a post through the generated SDK, as `token`, and returns status and body. The body is
 * loosely typed on purpose: the contract-checking fetch has already validated it, and tests dig into it.
 */
export async function restore(
  harness: PublishingTestServer,
  token: string | undefined,
  site: string | number,
  postId: number,
  query: RestorePostData['query'] = {},
) {
  const result = await restorePost({
    client: harness.client,
    path: { site: String(site), post_ID: postId },
    query,
    ...(token === undefined ? {} : { auth: token }),
  });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as Record<string, any>,
    response: result.response,
  };
}

/** Reads a post through the generated SDK, as `token` (or anonymously), and returns status and body. */
export async function read(
  harness: PublishingTestServer,
  token: string | undefined,
  site: string | number,
  postId: number,
  query: GetPostData['query'] = {},
) {
  const result = await getPost({
    client: harness.client,
    path: { site: String(site), post_ID: postId },
    query,
    ...(token === undefined ? {} : { auth: token }),
  });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as Record<string, any>,
    response: result.response,
  };
}

/** Trashes (or, from the trash, deletes) a post through the generated SDK, as `token`, and returns status and body. */
export async function trash(
  harness: PublishingTestServer,
  token: string | undefined,
  site: string | number,
  postId: number,
  query: DeletePostData['query'] = {},
) {
  const result = await deletePost({
    client: harness.client,
    path: { site: String(site), post_ID: postId },
    query,
    ...(token === undefined ? {} : { auth: token }),
  });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as Record<string, any>,
    response: result.response,
  };
}

/**
 * POSTs a JSON body to `/posts/new` or `/posts/{ID}` (contract-checked), as `token` (or anonymously), on `site`
 * (default 1) with `query` (default `?context=edit`); returns status, `Retry-After` and body.
 */
export async function savePost(
  harness: PublishingTestServer,
  token: string | undefined,
  target: 'new' | number,
  body: unknown,
  { site = 1 as string | number, query = '?context=edit' } = {},
) {
  const response = await harness.call(`${harness.server.url}/rest/v1.1/sites/${site}/posts/${target}${query}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, any>,
  };
}

/**
 * Sends `method` to `path` (after the origin: `/rest/v1.1/...`), contract-checked, as `token` (or anonymously), with
 * `body` as JSON when given; returns status, headers, the text and the body parsed (`undefined` when empty).
 */
export async function callJson(
  harness: PublishingTestServer,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  const response = await harness.call(`${harness.server.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: (text ? JSON.parse(text) : undefined) as Record<string, any>,
  };
}

/**
 * `callJson` whose answer is checked against the contract only when the
 * test calls `checked()`: for a test that measures the server's work in this
 * process (`longestSlice`) and must not count its own checking.
 */
export async function callUnchecked(
  harness: PublishingTestServer,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  const url = `${harness.server.url}${path}`;
  const response = await injectFetch(harness.server.server)(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    /** Checks the answer against the contract (throws on a violation) and returns its body parsed. */
    checked: () => {
      harness.checker.check(method, new URL(url), response.status, response.headers, text);
      return (text ? JSON.parse(text) : undefined) as Record<string, any>;
    },
  };
}

/** A post row for tests: a published post of site 1 by the admin, with the given fields over these defaults. */
export function postRow(
  fields: { id: number } & Partial<Insertable<PublishingTables['posts']>>,
): Insertable<PublishingTables['posts']> {
  return {
    site_id: 1,
    author_id: 1,
    type: 'post',
    status: 'publish',
    slug: `post-${fields.id}`,
    title: `Post ${fields.id}`,
    content: `Content of post ${fields.id}`,
    excerpt: '',
    password: '',
    parent_id: null,
    guid: `https://demo.example.com/?p=${fields.id}`,
    date: '2026-04-01T10:00:00.000Z',
    modified: '2026-04-01T10:00:00.000Z',
    ...NEW_POST_DEFAULTS,
    ...fields,
  };
}

/** Writes posts straight into the store (as the admin command line's import would), bypassing the API. */
export async function insertPosts(
  harness: PublishingTestServer,
  rows: Insertable<PublishingTables['posts']>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += 200) {
    await harness.server.built.db
      .insertInto('posts')
      .values(rows.slice(start, start + 200))
      .execute();
  }
}

/** The id of the first metadata row `insertSurroundedPosts` writes (one a post, in order). */
const SURROUNDED_META_ID = 9000;

/**
 * Writes posts (`insertPosts`), each in the demo post's terms and with a
 * metadata row: every kind of row around a post has something to read.
 */
export async function insertSurroundedPosts(
  harness: PublishingTestServer,
  rows: Insertable<PublishingTables['posts']>[],
): Promise<void> {
  await insertPosts(harness, rows);
  const db = harness.server.built.db;
  const terms = await db.selectFrom('post_terms').select('term_id').where('post_id', '=', 108).execute();
  for (const [i, { id }] of rows.entries()) {
    await db
      .insertInto('post_terms')
      .values(terms.map(({ term_id }) => ({ post_id: id!, term_id })))
      .execute();
    await db
      .insertInto('post_meta')
      .values({ id: SURROUNDED_META_ID + i, post_id: id!, meta_key: 'mood', meta_value: JSON.stringify(`calm ${i}`) })
      .execute();
  }
}

let surroundedChanges = 0;
/**
 * The SQL statements run while `answer` runs, after a change to the first
 * metadata row `insertSurroundedPosts` wrote, so nothing of an earlier read
 * is kept (a SQLite store keeps a page's records under its change mark).
 */
export async function statementsAfterChange(
  harness: PublishingTestServer,
  answer: () => Promise<void>,
): Promise<string[]> {
  await harness.server.built.db
    .updateTable('post_meta')
    .set({ meta_value: JSON.stringify(`edited ${++surroundedChanges}`) })
    .where('id', '=', SURROUNDED_META_ID)
    .execute();
  const seen: string[] = [];
  const stop = recordStatements((text) => seen.push(text));
  try {
    await answer();
  } finally {
    stop();
  }
  return seen;
}

/** Lists a site's posts through the generated SDK, as `token` (or anonymously), and returns status and body. */
export async function list(
  harness: PublishingTestServer,
  token: string | undefined,
  site: string | number,
  query: ListPostsData['query'] = {},
) {
  const result = await listPosts({
    client: harness.client,
    path: { site: String(site) },
    query,
    ...(token === undefined ? {} : { auth: token }),
  });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as Record<string, any>,
    response: result.response,
  };
}
