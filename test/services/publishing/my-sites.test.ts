import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANDROID_CAPABILITY_READS,
  IOS_OPTION_READS,
  IOS_SITE_READS,
  androidSiteFields,
  androidSitesQuery,
  iosSitesQuery,
} from '../../fixtures/client-bodies.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The apps' site sync (issue 54, rows 3 and 4), as their sources send it:
 * iOS `GET /rest/v1.2/me/sites?site_visibility=visible` (WordPressKit
 * `AccountServiceRemoteREST.m`), Android `GET /rest/v1.2/me/sites` with
 * `filters` and `fields` and `GET /rest/v1.1/sites/{ID}` with the same
 * `fields` (FluxC `SiteRestClient.kt`). Each site carries the caller's
 * `capabilities` there, those of their role as the server enforces them,
 * and `options` when they may edit posts. Every answer is checked against
 * the contract.
 */
let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  // Capabilities read anew on each request (no site cache), so a role changed in the store shows at once.
  harness = await startPublishing({ SITE_CACHE_MS: '0' });
  for (const login of ['admin', 'author', 'contributor', 'subscriber', 'moderator'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const get = (path: string, login?: string) => callJson(harness, 'GET', path, login && tokens[login]);

type Json = Record<string, any>;

/** The value at a dotted path, undefined when a step is missing. */
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((current, key) => (current as Json | undefined)?.[key], value);

describe('iOS: WordPressKit AccountServiceRemoteREST getBlogsWithParameters (v1.2 me/sites)', () => {
  it('site_visibility=visible lists the administrator’s sites with what RemoteBlog reads, by type', async () => {
    const answer = await get(`/rest/v1.2/me/sites?${iosSitesQuery}`, 'admin');
    expect(answer.status).toBe(200);
    const sites = answer.body.sites as Json[];
    expect(sites.map((site) => site.ID)).toEqual([1, 2]);
    for (const site of sites) {
      for (const path of IOS_SITE_READS) expect(at(site, path), path).toBeDefined();
      expect(typeof site.ID).toBe('number');
      expect(typeof site.URL).toBe('string');
      expect(site.jetpack).toBe(false);
      expect(site.visible).toBe(true);
      // RemoteBlog's isAdmin.
      expect(site.capabilities.manage_options).toBe(true);
      for (const option of IOS_OPTION_READS) expect(site.options[option], option).toBeDefined();
      expect(site.options.admin_url).toBe(`${site.URL}/wp-admin/`);
      expect(site.options.gmt_offset).toBe(0);
      // v1.2 names the language `locale`.
      expect(site.locale).toBe('en');
      expect(site).not.toHaveProperty('lang');
    }
    expect(sites[0]?.options.allowed_file_types).toEqual(['jpg', 'jpeg', 'png', 'gif', 'webp', 'pdf']);
  });

  it('no parameters (getBlogsWithSuccess) lists the same; hidden and deleted list none (nothing here hides or deletes a site)', async () => {
    const all = await get('/rest/v1.2/me/sites', 'author');
    expect((all.body.sites as Json[]).map((site) => site.ID)).toEqual([1]);
    expect((await get('/rest/v1.2/me/sites?site_visibility=all', 'author')).body).toEqual(all.body);
    expect((await get('/rest/v1.2/me/sites?site_visibility=hidden', 'author')).body).toEqual({ sites: [] });
    // Calypso's sites dashboard asks for deleted sites (to offer a restore) as `site_visibility=deleted&include_a8c_owned=false&per_page=1`.
    const deleted = await get(
      '/rest/v1.2/me/sites?site_visibility=deleted&include_a8c_owned=false&per_page=1',
      'author',
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ sites: [] });
    const bad = await get('/rest/v1.2/me/sites?site_visibility=sometimes', 'author');
    expect(bad.status).toBe(400);
  });

  it('needs a token', async () => {
    expect((await get('/rest/v1.2/me/sites')).status).toBe(401);
  });
});

describe('Android: FluxC SiteRestClient fetchSites (v1.2 me/sites) and fetchSite (v1.1 sites/{ID})', () => {
  it('filters and fields: only SITE_FIELDS keys, capabilities booleans, options as siteResponseToSiteModel reads them', async () => {
    const answer = await get(`/rest/v1.2/me/sites?${androidSitesQuery}`, 'author');
    expect(answer.status).toBe(200);
    const [site] = answer.body.sites as Json[];
    const allowed = new Set(androidSiteFields.split(','));
    expect(Object.keys(site ?? {}).every((key) => allowed.has(key))).toBe(true);
    expect(Object.keys(site ?? {})).toEqual(
      expect.arrayContaining(['ID', 'URL', 'name', 'jetpack', 'jetpack_connection', 'capabilities', 'options', 'meta']),
    );
    expect(site).not.toHaveProperty('post_count');
    for (const name of ANDROID_CAPABILITY_READS) expect(typeof site?.capabilities[name], name).toBe('boolean');
    // An author: writes and publishes their own posts, uploads; nothing of others', no site administration.
    expect(site?.capabilities).toMatchObject({
      edit_posts: true,
      edit_pages: true,
      publish_posts: true,
      upload_files: true,
      edit_others_posts: false,
      edit_others_pages: false,
      manage_categories: false,
      manage_options: false,
      list_users: false,
    });
    expect(typeof site?.options.admin_url).toBe('string');
    expect(typeof site?.options.login_url).toBe('string');
    expect(typeof site?.options.gmt_offset).toBe('number');
    expect(site?.options.featured_images_enabled).toBe(true);
    expect(site?.options.post_formats).toMatchObject({ aside: 'Aside', gallery: 'Gallery' });

    const single = await get(`/rest/v1.1/sites/1?fields=${androidSiteFields}`, 'author');
    expect(single.status).toBe(200);
    // The same site as the list shows it, except v1.1's key for the language (not asked for here).
    expect(single.body).toEqual(site);
  });

  it('filters naming only other kinds of site keep none', async () => {
    expect((await get('/rest/v1.2/me/sites?filters=jetpack', 'admin')).body).toEqual({ sites: [] });
    expect(((await get('/rest/v1.2/me/sites?filters=atomic,wpcom', 'admin')).body.sites as Json[]).length).toBe(2);
  });
});

describe('the site object’s capabilities and options follow the caller’s role', () => {
  it('a contributor: edit and delete own posts, no publishing or uploads; options (they edit posts)', async () => {
    const [site] = (await get('/rest/v1.1/me/sites', 'contributor')).body.sites as Json[];
    expect(site?.capabilities).toMatchObject({
      edit_posts: true,
      delete_posts: true,
      publish_posts: false,
      upload_files: false,
      manage_options: false,
    });
    expect(site?.options).toBeDefined();
    expect(site?.lang).toBe('en');
  });

  it('a subscriber: every capability false, and no options (the platform shows them only to who may edit posts)', async () => {
    const [site] = (await get('/rest/v1.1/me/sites', 'subscriber')).body.sites as Json[];
    expect(Object.values(site?.capabilities ?? {}).every((held) => held === false)).toBe(true);
    expect(site).not.toHaveProperty('options');
  });

  it('a custom role holds what its rows give, read from the store: a change to the role shows at once', async () => {
    const before = ((await get('/rest/v1.1/me/sites', 'moderator')).body.sites as Json[])[0];
    expect(before?.capabilities).toMatchObject({
      delete_others_posts: true,
      edit_posts: false,
      moderate_comments: false,
    });
    expect(before).not.toHaveProperty('options');
    await harness.server.built.db
      .insertInto('role_capabilities')
      .values([
        { role: 'moderator', capability: 'moderate_comments' },
        { role: 'moderator', capability: 'edit_posts' },
      ])
      .execute();
    const after = ((await get('/rest/v1.1/me/sites', 'moderator')).body.sites as Json[])[0];
    expect(after?.capabilities).toMatchObject({ moderate_comments: true, edit_posts: true, edit_pages: true });
    expect(after?.options).toBeDefined();
  });

  it('without a role on the site (no token): no capabilities, no options; GET /sites/{ID} and meta=site agree', async () => {
    const anonymous = await get('/rest/v1.1/sites/1');
    expect(anonymous.body).not.toHaveProperty('capabilities');
    expect(anonymous.body).not.toHaveProperty('options');
    const admin = await get('/rest/v1.1/sites/1?options=admin_url,timezone', 'admin');
    expect(Object.keys(admin.body.options)).toEqual(['timezone', 'admin_url']);
    const listed = ((await get('/rest/v1.1/me/sites?options=admin_url,timezone', 'admin')).body.sites as Json[])[0];
    expect(listed).toEqual(admin.body);
    const post = await get('/rest/v1.1/sites/1/posts/108?meta=site', 'admin');
    expect(post.body.meta.data.site).toEqual((await get('/rest/v1.1/sites/1', 'admin')).body);
  });
});
