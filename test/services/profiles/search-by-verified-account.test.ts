import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchProfilesByVerifiedAccount } from '../../../generated/profiles/sdk.gen.js';
import { validateProfileRecords } from '../../../src/services/profiles/import/readProfileImport.js';
import type { ProfileRecord } from '../../../src/services/profiles/import/profileRecord.js';
import { verifiedAccountSearchQueries } from '../../../src/services/profiles/store/kysely/profileDirectory.js';
import type { ProfilesDatabase } from '../../../src/services/profiles/store/tables.js';
import { realAnswerProblems } from '../../support/realProfileSchema.js';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

/**
 * `GET /v3/profiles/search/by-verified-account`: profiles by a verified
 * account's username (and service), paginated as the real one is, found
 * through an index (the plans are read on the store under test), hidden
 * accounts never. Every answer goes through the contract-checking fetch.
 */
let harness: ProfilesTestServer;
let key: string;
beforeAll(async () => {
  harness = await startProfiles({ RATE_LIMIT_KEYED: '200', RATE_LIMIT_ACCOUNT: '200' });
  ({ key } = await harness.issueKey());
  // Five profiles sharing a GitHub username, one of them with the account hidden, and one whose only match is on Mastodon.
  const shared = (n: number, hidden = false): ProfileRecord => ({
    email: `shared${n}@example.com`,
    slug: `shared-${n}`,
    display_name: `Shared ${n}`,
    verified_accounts: [
      { service_type: 'github', url: `https://github.com/someone-${n}`, username: 'Shared', is_hidden: hidden },
    ],
  });
  await save([
    shared(1),
    shared(2),
    shared(3),
    shared(4, true),
    shared(5),
    shared(6),
    {
      email: 'toot@example.com',
      slug: 'toot',
      display_name: 'Toot',
      verified_accounts: [{ service_type: 'mastodon', url: 'https://mastodon.example/@shared' }],
    },
  ]);
});
afterAll(() => harness.close());

const save = (records: ProfileRecord[]) =>
  harness.store.saveProfiles(
    validateProfileRecords(records, new Date()).map(({ email, profile }) => ({ email, profile, avatar: null })),
  );

type Page = { profiles: { slug?: string; profile_url: string; display_name: string }[]; total_pages: number };

async function search(query: Record<string, unknown>, options: { key?: string | null } = {}) {
  const auth = options.key === null ? {} : { auth: options.key ?? key };
  const result = await searchProfilesByVerifiedAccount({ client: harness.client, query: query as never, ...auth });
  return {
    status: result.response.status,
    body: (result.data ?? result.error) as Page & { code?: string },
    headers: result.response.headers,
  };
}

const slugs = (page: Page) => page.profiles.map((profile) => profile.profile_url.split('/').at(-1));

describe('a keyed search', () => {
  it("finds the profile whose verified account has the username, as a keyed lookup answers it, in the real answer's shape", async () => {
    const answer = await search({ username: 'alexmorgan', service: 'github' });
    expect(answer.status).toBe(200);
    expect(answer.body.total_pages).toBe(1);
    expect(answer.body.profiles).toEqual([(await lookup(harness, 'alex', { key })).body]);
    expect(realAnswerProblems('/profiles/search/by-verified-account', 'get', 200, answer.body)).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });

  it('matches the username in any letter case, on any service when none is named, each profile once', async () => {
    expect(slugs((await search({ username: 'AlexMorgan' })).body)).toEqual(['alex']);
    expect(slugs((await search({ username: 'QUINNQUIET', service: 'github' })).body)).toEqual(['quiet']);
    expect(slugs((await search({ username: 'shared', per_page: 50 })).body)).toEqual([
      'shared-1',
      'shared-2',
      'shared-3',
      'shared-5',
      'shared-6',
      'toot',
    ]);
    expect(slugs((await search({ username: 'shared', service: 'mastodon' })).body)).toEqual(['toot']);
  });

  it('never finds an account its owner hid', async () => {
    // alex's Tumblr account (https://alexmorgan.tumblr.example/) is hidden.
    expect((await search({ username: 'alexmorgan', service: 'tumblr' })).body).toEqual({
      profiles: [],
      total_pages: 0,
    });
    expect(slugs((await search({ username: 'shared', service: 'github', per_page: 50 })).body)).not.toContain(
      'shared-4',
    );
  });

  it('pages by slug, per_page at a time, with the total number of pages; a page past the last is empty', async () => {
    const pages = [];
    for (const page of [1, 2, 3])
      pages.push((await search({ username: 'shared', service: 'github', per_page: 2, page })).body);
    expect(pages.map(slugs)).toEqual([['shared-1', 'shared-2'], ['shared-3', 'shared-5'], ['shared-6']]);
    expect(pages.map((page) => page.total_pages)).toEqual([3, 3, 3]);
    expect((await search({ username: 'shared', service: 'github', per_page: 2, page: 4 })).body).toEqual({
      profiles: [],
      total_pages: 3,
    });
    expect((await search({ username: 'shared', service: 'github' })).body.profiles).toHaveLength(5);
  });

  it('follows a re-import: an account hidden or removed is no longer found', async () => {
    await save([
      {
        email: 'gone@example.com',
        slug: 'gone',
        display_name: 'Gone',
        verified_accounts: [{ service_type: 'github', url: 'https://github.com/gone' }],
      },
    ]);
    expect(slugs((await search({ username: 'gone' })).body)).toEqual(['gone']);
    await save([
      {
        email: 'gone@example.com',
        slug: 'gone',
        display_name: 'Gone',
        verified_accounts: [{ service_type: 'github', url: 'https://github.com/gone', is_hidden: true }],
      },
    ]);
    expect((await search({ username: 'gone' })).body).toEqual({ profiles: [], total_pages: 0 });
  });

  it("counts against the key's hourly limit together with its lookups", async () => {
    const { key: counted } = await harness.issueKey('searcher@example.com');
    const remaining = (answer: { headers: Headers }) => Number(answer.headers.get('x-ratelimit-remaining'));
    const first = await lookup(harness, 'alex', { key: counted });
    const second = await search({ username: 'alexmorgan' }, { key: counted });
    expect([first, second].map(remaining)).toEqual([199, 198]);
  });
});

describe("bad input gets the service's own error", () => {
  it.each([
    ['an unknown service', { username: 'alexmorgan', service: 'myspace' }, /service/],
    ['no username', {}, /username/],
    ['an empty username', { username: '' }, /username/],
    ['per_page over 50', { username: 'a', per_page: 51 }, /per_page/],
    ['page 0', { username: 'a', page: 0 }, /page/],
  ])('%s is 400 invalid_request naming the parameter', async (_what, query, named) => {
    const answer = await search(query);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_request');
    expect((answer.body as unknown as { error: string }).error).toMatch(named);
  });

  it('a caller without a key is 401', async () => {
    const answer = await search({ username: 'alexmorgan' }, { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'You are not authorized to perform this action', code: 'unauthorized' });
  });
});

describe('the queries', () => {
  /** The plan the store makes of a query, as text (PostgreSQL with sequential scans discouraged, so a usable index shows). */
  async function planOf(query: { compile(): CompiledQuery }): Promise<string> {
    const db = harness.server.built.db as Kysely<ProfilesDatabase>;
    const compiled = query.compile();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      return db.connection().execute(async (connection) => {
        await connection.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
        try {
          const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]),
          );
          return rows.map((row) => row['QUERY PLAN']).join('\n');
        } finally {
          await connection.executeQuery(CompiledQuery.raw('RESET enable_seqscan'));
        }
      });
    }
    const { rows } = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
    );
    return rows.map((row) => row.detail).join('\n');
  }

  it.each([
    ['a username', { username: 'shared', limit: 20, offset: 0 }],
    ['a username on a service', { username: 'shared', service: 'github', limit: 20, offset: 0 }],
  ])(
    'find the accounts of %s through the username index, counting and paging, and read no table whole',
    async (_what, criteria) => {
      const db = harness.server.built.db as Kysely<ProfilesDatabase>;
      const { matching, page } = verifiedAccountSearchQueries(db, criteria);
      for (const query of [matching, page]) {
        const plan = await planOf(query);
        expect(plan).toMatch(/profile_verified_accounts_username/);
        // No table is read whole: every table is searched by an index (SQLite's `SCAN t`, PostgreSQL's `Seq Scan on t`).
        expect(plan).not.toMatch(/^SCAN |Seq Scan/m);
      }
    },
  );
});
