import wpcomModule from 'wpcom';
import wpcomXhrRequest, { type XhrRequestParams } from 'wpcom-xhr-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishing, type PublishingTestServer } from './support.js';

/** `wpcom` ships ES modules with CommonJS-style types: at run time its default import is the factory itself. */
const WPCOM = wpcomModule as unknown as typeof wpcomModule.default;

/**
 * The platform's own JavaScript client (`wpcom`, with its request handler
 * `wpcom-xhr-request`), unchanged but for its base URL (`proxyOrigin`),
 * against this server: read, trash, restore, read again; its error objects
 * and its envelope mode. The server runs with strict response validation, so
 * an answer that broke the contract would reach the client as a 500.
 */
let harness: PublishingTestServer;
let token: string;

/** A `wpcom` client whose requests go to this server instead of the platform's public host. */
function client(accessToken?: string) {
  // The client hands its handler the request it built (path, method, query, token).
  const toThisServer = (params: object, callback: Parameters<typeof wpcomXhrRequest>[1]) =>
    wpcomXhrRequest({ ...(params as XhrRequestParams), proxyOrigin: harness.server.url }, callback);
  return accessToken ? WPCOM(accessToken, toThisServer) : WPCOM(toThisServer);
}

beforeAll(async () => {
  harness = await startPublishing();
  token = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

describe('wpcom.site(site).post(id)', () => {
  it('get -> delete -> restore -> get', async () => {
    const post = client(token).site('demo.example.com').post(108);

    const before = await post.get();
    expect(before).toMatchObject({ ID: 108, status: 'publish', slug: 'welcome-to-the-demo-site' });

    const trashed = await post.delete();
    expect(trashed).toMatchObject({ ID: 108, status: 'trash', slug: 'welcome-to-the-demo-site__trashed' });
    expect(await post.get()).toMatchObject({ ID: 108, status: 'trash' });

    const restored = await post.restore();
    expect(restored).toMatchObject({ ID: 108, status: 'publish', slug: 'welcome-to-the-demo-site' });

    const after = await post.get();
    expect(after).toEqual({ ...before, modified: after.modified });
  });

  it('follows meta.links.self of a restored post in a sub-folder site', async () => {
    const restored = await client(token).site('demo.example.com::blog').post(120).restore({ context: 'edit' });
    expect(restored).toMatchObject({ ID: 120, site_ID: 2, status: 'publish' });
    const self = new URL(restored.meta.links.self);
    const read = await client(token).req.get(self.pathname.replace('/rest/v1.1', ''));
    expect(read).toMatchObject({ ID: 120, status: 'publish' });
  });

  it('reads the site and the post\u2019s comments (meta.links.site and .replies) through its own helpers', async () => {
    expect(await client().site('demo.example.com').get()).toMatchObject({ ID: 1, name: 'Harbour Town Demo' });
    const replies = await client().site('demo.example.com').post(108).comments();
    expect(replies).toMatchObject({ found: 1, site_ID: 1, comments: [{ ID: 607, status: 'approved' }] });
  });

  it('reads a published post without a token', async () => {
    expect(await client().site('1').post(112).get({ fields: 'ID,type,title' })).toEqual({
      ID: 112,
      type: 'page',
      title: 'About',
    });
  });

  it('turns an error answer into the client\u2019s error object', async () => {
    const error = await client(token)
      .site('1')
      .post(999)
      .get()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 404, error: 'unknown_post', message: 'Unknown post' });
    const refused = await client()
      .site('1')
      .post(101)
      .restore()
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ statusCode: 401, error: 'authorization_required' });
  });

  it('unwraps the envelope in envelope mode, errors included', async () => {
    expect(await client(token).site('1').post(112).get({ http_envelope: 1, fields: 'ID' })).toEqual({ ID: 112 });
    const error = await client(token)
      .site('1')
      .post(999)
      .get({ http_envelope: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 404, error: 'unknown_post' });
  });
});

/**
 * The calls the web editor's trash screen and its save cycle make, through
 * the client's own helpers, unchanged: the counts for the tabs, the trashed
 * posts, a restore, the list again; then write, edit, find by slug, trash,
 * restore.
 */
describe('the trash screen and the save cycle', () => {
  it('postCounts -> postsList({ status: trash }) -> restore -> postsList', async () => {
    const site = client(token).site('demo.example.com');
    const counts = await site.postCounts('post');
    expect(counts).toEqual({ counts: { all: { publish: 1, trash: 8 }, mine: { publish: 1, trash: 5 } } });

    const trashed = await site.postsList({ status: 'trash', number: 5 });
    expect(trashed).toMatchObject({ found: counts.counts.all.trash });
    expect(trashed.posts).toHaveLength(5);
    expect(trashed.meta.next_page).toEqual(expect.any(String));
    const rest = await site.postsList({ status: 'trash', number: 5, page_handle: trashed.meta.next_page });
    expect(rest.posts.map((post: { ID: number }) => post.ID)).not.toContain(trashed.posts[0].ID);

    const first = trashed.posts[0];
    expect(first.status).toBe('trash');
    const restored = await site.post(first.ID).restore();
    // The status it had before the trash (the newest trashed post, 105, was scheduled).
    expect(restored).toMatchObject({ ID: first.ID, status: 'future' });

    const after = await site.postsList({ status: 'trash' });
    expect(after.found).toBe(trashed.found - 1);
    expect(after.posts.map((post: { ID: number }) => post.ID)).not.toContain(first.ID);
    expect((await site.postCounts('post')).counts.all.trash).toBe(counts.counts.all.trash - 1);
  });

  it('addPost -> update -> getBySlug -> delete -> restore', async () => {
    const site = client(token).site('demo.example.com');
    const added = await site.addPost({ title: 'Harbour regatta', content: 'Boats at noon.', tags: 'boats' });
    expect(added).toMatchObject({ status: 'publish', slug: 'harbour-regatta', title: 'Harbour regatta' });

    const updated = await site
      .post(added.ID)
      .update({ context: 'edit' }, { title: 'Harbour regatta, day one', excerpt: 'Boats' });
    expect(updated).toMatchObject({
      ID: added.ID,
      title: 'Harbour regatta, day one',
      slug: 'harbour-regatta',
      revisions: [expect.any(Number)],
    });

    const bySlug = await site.post({ slug: 'harbour-regatta' }).getBySlug();
    expect(bySlug).toMatchObject({ ID: added.ID, title: 'Harbour regatta, day one' });

    const trashed = await site.post(added.ID).delete();
    expect(trashed).toMatchObject({ ID: added.ID, status: 'trash', slug: 'harbour-regatta__trashed' });
    const gone = await site
      .post({ slug: 'harbour-regatta' })
      .getBySlug()
      .catch((caught: unknown) => caught);
    expect(gone).toMatchObject({ statusCode: 404, error: 'unknown_post' });

    const back = await site.post(added.ID).restore();
    expect(back).toMatchObject({ ID: added.ID, status: 'publish', slug: 'harbour-regatta' });
    expect(await site.post({ slug: 'harbour-regatta' }).getBySlug({ fields: 'ID,status' })).toEqual({
      ID: added.ID,
      status: 'publish',
    });
  });

  it('turns a refused save into the client\u2019s error object', async () => {
    const subscriber = await harness.tokenFor('subscriber');
    const error = await client(subscriber)
      .site('demo.example.com')
      .addPost({ title: 'Not mine' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 403, error: 'unauthorized', message: 'User cannot publish posts' });
  });
});
