import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failNextStatement } from '../../support/failingStatement.js';
import { callJson, startPublishing, type PublishingTestServer, savePost } from './support.js';

/**
 * A post write (`/posts/new`, `/posts/{ID}`) is one transaction: when the
 * store fails half-way (here: the statement writing a term link, a metadata
 * entry or the trash record fails as a lost store does), the request answers
 * 503 with `Retry-After` and nothing it wrote stays: no post without its
 * terms or metadata (a retried create makes no second post), no edit without
 * its fields.
 */
let harness: PublishingTestServer;
let token: string;
let fault: ReturnType<typeof failNextStatement> | undefined;
beforeAll(async () => {
  harness = await startPublishing({ STORE_RETRY_AFTER_SECONDS: '1' });
  token = await harness.tokenFor('admin');
});
afterEach(() => {
  fault?.restore();
  fault = undefined;
});
afterAll(() => harness?.close());

const db = () => harness.server.built.db;

const save = (target: 'new' | number, body: unknown) => savePost(harness, token, target, body);

const postsTitled = (title: string) => db().selectFrom('posts').select('id').where('title', '=', title).execute();

/** Everything a write may change about a post, as stored. */
async function stored(postId: number) {
  const post = await db().selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirstOrThrow();
  const terms = await db()
    .selectFrom('post_terms')
    .select('term_id')
    .where('post_id', '=', postId)
    .orderBy('term_id')
    .execute();
  const meta = await db()
    .selectFrom('post_meta')
    .select(['id', 'meta_key', 'meta_value'])
    .where('post_id', '=', postId)
    .orderBy('id')
    .execute();
  const revisions = await db().selectFrom('revisions').select('id').where('post_id', '=', postId).execute();
  const trash = await db().selectFrom('trash_meta').selectAll().where('post_id', '=', postId).execute();
  const termCount = await db().selectFrom('terms').select('id').where('site_id', '=', 1).execute();
  return { post, terms, meta, revisions: revisions.length, trash, siteTerms: termCount.length };
}

const FIELDS = {
  categories: 'News, A category of the failed write',
  tags: ['harbour', 'A tag of the failed write'],
  metadata: [{ key: 'mood', value: 'stormy', operation: 'add' }],
};

describe('a create whose store fails half-way', () => {
  it.each([
    ['a term link', /^insert into "post_terms"/],
    ['a metadata entry', /^insert into "post_meta"/],
  ])(
    'on %s answers 503 with Retry-After and leaves no post, no new term; the retry makes one post',
    async (_, statement) => {
      const title = `Failed create ${statement.source}`;
      const termsBefore = (await db().selectFrom('terms').select('id').where('site_id', '=', 1).execute()).length;
      fault = failNextStatement(statement);
      const failed = await save('new', { title, status: 'publish', ...FIELDS });
      expect(fault.fired()).toBe(true);
      expect(failed.status).toBe(503);
      expect(failed.retryAfter).toBe('1');
      expect(await postsTitled(title)).toEqual([]);
      expect((await db().selectFrom('terms').select('id').where('site_id', '=', 1).execute()).length).toBe(termsBefore);

      const retried = await save('new', { title, status: 'publish', ...FIELDS });
      expect(retried.status).toBe(200);
      expect(await postsTitled(title)).toEqual([{ id: retried.body.ID }]);
      expect(Object.keys(retried.body.categories)).toEqual(['A category of the failed write', 'News']);
      expect(retried.body.metadata).toEqual([expect.objectContaining({ key: 'mood', value: 'stormy' })]);
    },
  );
});

describe('an update whose store fails half-way', () => {
  it.each([
    ['a term link', /^insert into "post_terms"/, {}],
    ['a metadata entry', /^delete from "post_meta"/, {}],
    ['the trash record', /^insert into "trash_meta"/, { status: 'trash' }],
  ])('on %s answers 503 with Retry-After and leaves the post exactly as it was', async (_, statement, extra) => {
    const created = await save('new', {
      title: `Kept as it was ${statement.source}`,
      status: 'publish',
      categories: 'News',
      tags: 'harbour',
      metadata: [
        { key: 'mood', value: 'calm', operation: 'add' },
        { key: 'colour', value: 'blue', operation: 'add' },
      ],
    });
    expect(created.status).toBe(200);
    const before = await stored(created.body.ID);

    fault = failNextStatement(statement);
    const failed = await save(created.body.ID, {
      title: 'An edit that fails',
      content: 'New content',
      ...FIELDS,
      metadata: [
        { key: 'colour', operation: 'delete' },
        { key: 'mood', value: 'stormy', operation: 'update' },
      ],
      ...extra,
    });
    expect(fault.fired()).toBe(true);
    expect(failed.status).toBe(503);
    expect(failed.retryAfter).toBe('1');
    expect(await stored(created.body.ID)).toEqual(before);
  });

  it('of a trashed post taken out of the trash leaves it in the trash', async () => {
    const created = await save('new', { title: 'Trashed, then a failing edit', status: 'publish', tags: 'harbour' });
    expect((await save(created.body.ID, { status: 'trash' })).status).toBe(200);
    const before = await stored(created.body.ID);
    expect(before.post.status).toBe('trash');

    fault = failNextStatement(/^insert into "post_terms"/);
    const failed = await save(created.body.ID, { status: 'draft', tags: 'A tag of the failed write' });
    expect(fault.fired()).toBe(true);
    expect(failed.status).toBe(503);
    expect(await stored(created.body.ID)).toEqual(before);
  });
});

describe('concurrent writes, each one transaction', () => {
  it('creates racing for the next post, term and metadata IDs and a new term all succeed, each post with its own fields', async () => {
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        save('new', {
          title: `Racing create ${i}`,
          status: 'publish',
          tags: ['A racing tag', `Racing tag ${i}`],
          metadata: [{ key: 'lane', value: `lane ${i}`, operation: 'add' }],
        }),
      ),
    );
    expect(saves.map((saved) => saved.status)).toEqual(saves.map(() => 200));
    expect(new Set(saves.map((saved) => saved.body.ID)).size).toBe(saves.length);
    const racingTag = await db()
      .selectFrom('terms')
      .select('id')
      .where('site_id', '=', 1)
      .where('slug', '=', 'a-racing-tag')
      .execute();
    expect(racingTag).toHaveLength(1);
    for (const [i, saved] of saves.entries()) {
      expect(Object.keys(saved.body.tags).sort()).toEqual(['A racing tag', `Racing tag ${i}`]);
      expect(saved.body.tags['A racing tag'].ID).toBe(racingTag[0]?.id);
      expect(saved.body.metadata).toEqual([expect.objectContaining({ key: 'lane', value: `lane ${i}` })]);
    }
  });

  it('more creates at once than a write retries, with terms and metadata, all succeed with IDs one after another', async () => {
    // Each of them reads the same largest ID; without a lock on the IDs all but one collided on the key
    // and tried again, and a writer could lose every try: on PostgreSQL some answered 500.
    const count = 40;
    const saves = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        save('new', {
          title: `Crowded create ${i}`,
          status: 'publish',
          tags: [`Crowded tag ${i}`],
          metadata: [{ key: 'seat', value: `seat ${i}`, operation: 'add' }],
        }),
      ),
    );
    expect(saves.map((saved) => saved.status)).toEqual(saves.map(() => 200));
    const ids = saves.map((saved) => saved.body.ID as number).sort((a, b) => a - b);
    expect(new Set(ids).size).toBe(count);
    expect(ids.at(-1)! - ids[0]!).toBe(count - 1);
  });

  it('more edits at once than a write retries, giving posts one slug, all succeed, each with a slug of its own', async () => {
    const count = 40;
    const ids: number[] = [];
    for (let i = 0; i < count; i++)
      ids.push((await save('new', { title: `Crowded draft ${i}`, status: 'draft' })).body.ID);
    const edits = await Promise.all(ids.map((id) => save(id, { slug: 'one-crowded-slug', status: 'publish' })));
    expect(edits.map((edited) => edited.status)).toEqual(edits.map(() => 200));
    expect(new Set(edits.map((edited) => edited.body.slug)).size).toBe(count);
  });

  it("edits of one post at once, v1.1's and v1.2's conditional ones mixed, all succeed", async () => {
    // A conditional edit held its post, then the site for a free slug; a plain one held the site, then wrote the
    // post: each waited on the other, and on PostgreSQL most answered 503. Both hold the site first now.
    const { ID } = (await save('new', { title: 'Edited from two devices', status: 'publish' })).body;
    const edits = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2
          ? callJson(harness, 'POST', `/rest/v1.2/sites/1/posts/${ID}?context=edit`, token, {
              title: `From the app ${i}`,
              slug: 'edited-from-two-devices',
              if_not_modified_since: '2099-01-01T00:00:00Z',
            })
          : save(ID, { title: `From the web ${i}`, slug: 'edited-from-two-devices' }),
      ),
    );
    expect(edits.map((edited) => edited.status)).toEqual(edits.map(() => 200));
  });

  it.each([
    ['tags/new', 'post_tag', 400, 'duplicate'],
    ['categories/new', 'category', 400, 'duplicate'],
    ['taxonomies/post_tag/terms/new', 'post_tag', 409, 'duplicate'],
  ])(
    'a crowd adding one name at %s adds one term; the others are told it exists',
    async (path, taxonomy, status, error) => {
      // Each add read the names, then the slugs, before writing: a crowd all found the name free and added it many times,
      // and on PostgreSQL some lost every try for a slug and answered 500.
      const name = `Crowded ${taxonomy} name at ${path}`;
      const adds = await Promise.all(
        Array.from({ length: 30 }, () => callJson(harness, 'POST', `/rest/v1.1/sites/1/${path}`, token, { name })),
      );
      const added = adds.filter((add) => add.status === 200);
      expect(added).toHaveLength(1);
      for (const refused of adds.filter((add) => add.status !== 200))
        expect(refused).toMatchObject({ status, body: { error } });
      const stored = await db().selectFrom('terms').select('id').where('name', '=', name).execute();
      expect(stored).toEqual([{ id: added[0]!.body.ID }]);
    },
  );

  it('a crowd adding names of one slug adds each, with a slug of its own', async () => {
    const adds = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        callJson(harness, 'POST', '/rest/v1.1/sites/1/tags/new', token, { name: `Crowded slug${'!'.repeat(i + 1)}` }),
      ),
    );
    expect(adds.map((add) => add.status)).toEqual(adds.map(() => 200));
    expect(new Set(adds.map((add) => add.body.slug)).size).toBe(adds.length);
  });
});
