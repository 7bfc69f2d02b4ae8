import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

/** Key order of the real v1.1 response (reference: "Post object details"). */
const POST_KEYS = [
  'ID',
  'site_ID',
  'author',
  'date',
  'modified',
  'title',
  'URL',
  'short_URL',
  'content',
  'excerpt',
  'slug',
  'guid',
  'status',
  'sticky',
  'password',
  'parent',
  'type',
  'discussion',
  'likes_enabled',
  'sharing_enabled',
  'like_count',
  'i_like',
  'is_reblogged',
  'is_following',
  'global_ID',
  'featured_image',
  'post_thumbnail',
  'format',
  'geo',
  'menu_order',
  'page_template',
  'publicize_URLs',
  'terms',
  'tags',
  'categories',
  'attachments',
  'attachment_count',
  'metadata',
  'meta',
  'capabilities',
  'revisions',
  'other_URLs',
];
const withoutRevisions = POST_KEYS.filter((key) => key !== 'revisions');

let harness: PublishingTestServer;
let publicUrl: string;
let boat1: string;
/** Post 107 as the admin sees it with context=edit, and as the moderator sees it with context=display. */
let asEditor: Record<string, any>;
let asModerator: Record<string, any>;

beforeAll(async () => {
  harness = await startPublishing({ PUBLIC_URL: 'https://api.example.test' });
  publicUrl = harness.server.config.publicUrl;
  // The demo's pictures are files of the deployment that loaded the demo (each in a folder named by its ID in hex).
  boat1 = (await harness.store.findMedia(1, 301))?.url ?? '';
  expect(boat1).toMatch(/\/files\/1\/000000000000012d\/boat-01\.jpg$/);
  asEditor = (await restore(harness, await harness.tokenFor('admin'), 1, 107, { context: 'edit' })).body;
  asModerator = (await restore(harness, await harness.tokenFor('moderator'), 1, 107)).body;
});
afterAll(() => harness?.close());

describe('keys', () => {
  it('come in the real API order, revisions only with context=edit', () => {
    expect(Object.keys(asEditor)).toEqual(POST_KEYS);
    expect(Object.keys(asModerator)).toEqual(withoutRevisions);
  });

  it('leave out revisions with context=edit when the post has none', async () => {
    const { body } = await restore(harness, await harness.tokenFor('admin'), 1, 108, { context: 'edit' });
    expect(Object.keys(body)).toEqual(withoutRevisions);
  });

  it('are all there for a page, with its parent, menu order and template', async () => {
    const { body } = await restore(harness, await harness.tokenFor('admin'), 1, 106);
    expect(Object.keys(body)).toEqual(withoutRevisions);
    expect(body).toMatchObject({
      type: 'page',
      parent: { ID: 112, type: 'page', link: `${publicUrl}/rest/v1.1/sites/1/posts/112`, title: 'About' },
      menu_order: 2,
      page_template: 'templates/full-width.php',
      URL: 'https://demo.example.com/about/our-team/',
      discussion: {
        comments_open: false,
        comment_status: 'closed',
        pings_open: false,
        ping_status: 'closed',
        comment_count: 0,
      },
    });
  });
});

describe('attachments', () => {
  it('lists the 20 most recent, keyed by ID, with attachment_count the total of 25', () => {
    const ids = Object.keys(asEditor.attachments)
      .map(Number)
      .sort((a, b) => a - b);
    // 301 was uploaded last; 302 to 306 are the oldest five.
    expect(ids).toEqual([301, ...Array.from({ length: 19 }, (_, i) => 307 + i)]);
    expect(asEditor.attachment_count).toBe(25);
  });

  it('describe each attachment; a non-image has no thumbnails and no size', () => {
    expect(asEditor.attachments['301']).toEqual({
      ID: 301,
      URL: boat1,
      guid: boat1,
      date: '2026-02-09T08:00:00+00:00',
      post_ID: 107,
      author_ID: 1,
      file: 'boat-01.jpg',
      mime_type: 'image/jpeg',
      extension: 'jpg',
      title: 'Boat 1',
      caption: 'Boat 1 coming in',
      description: '',
      alt: 'Boat 1',
      thumbnails: {
        thumbnail: `${boat1}?w=150`,
        medium: `${boat1}?w=300`,
        large: `${boat1}?w=1024`,
      },
      height: 800,
      width: 1200,
      meta: {
        links: {
          self: `${publicUrl}/rest/v1.1/sites/1/media/301`,
          help: `${publicUrl}/rest/v1.1/sites/1/media/301/help`,
          site: `${publicUrl}/rest/v1.1/sites/1`,
          parent: `${publicUrl}/rest/v1.1/sites/1/posts/107`,
        },
      },
    });
    expect(asEditor.attachments['324']).toMatchObject({
      mime_type: 'application/pdf',
      extension: 'pdf',
      thumbnails: {},
      width: 0,
      height: 0,
    });
  });

  it('give the featured image', () => {
    expect(asEditor.featured_image).toBe(boat1);
    expect(asEditor.post_thumbnail).toEqual({
      ID: 301,
      URL: boat1,
      guid: boat1,
      mime_type: 'image/jpeg',
      width: 1200,
      height: 800,
    });
  });
});

describe('terms, tags and categories', () => {
  it('are keyed by term name, per taxonomy, with links on the numeric site ID', () => {
    expect(Object.keys(asEditor.terms)).toEqual(['category', 'post_tag', 'post_format']);
    expect(Object.keys(asEditor.tags)).toEqual(['boats', 'dawn', 'harbour']);
    expect(Object.keys(asEditor.categories)).toEqual(['Harbour walks', 'Photography']);
    expect(asEditor.terms.post_tag).toEqual(asEditor.tags);
    expect(asEditor.terms.category).toEqual(asEditor.categories);
    expect(asEditor.categories['Harbour walks']).toEqual({
      ID: 5,
      name: 'Harbour walks',
      slug: 'harbour-walks',
      description: '',
      post_count: 1,
      parent: 4,
      meta: {
        links: {
          self: `${publicUrl}/rest/v1.1/sites/1/categories/slug:harbour-walks`,
          help: `${publicUrl}/rest/v1.1/sites/1/categories/slug:harbour-walks/help`,
          site: `${publicUrl}/rest/v1.1/sites/1`,
        },
      },
    });
    expect(asEditor.tags.harbour).not.toHaveProperty('parent');
  });

  it('count published posts, the restored one included', () => {
    // harbour: post 108, and 107 now that it is restored.
    expect(asEditor.tags.harbour.post_count).toBe(2);
  });

  it('give the post format', () => {
    expect(asEditor.format).toBe('gallery');
    expect(asEditor.terms.post_format.Gallery.meta.links.self).toBe(
      `${publicUrl}/rest/v1.1/sites/1/taxonomies/post_format/terms/slug:post-format-gallery`,
    );
  });

  it('are empty objects for a post with none', async () => {
    const { body } = await restore(harness, await harness.tokenFor('admin'), 1, 111);
    expect(body).toMatchObject({
      terms: {},
      tags: {},
      categories: {},
      attachments: {},
      attachment_count: 0,
      format: 'standard',
    });
  });
});

describe('metadata', () => {
  it('shows protected (_) keys to a caller who can edit the post', () => {
    expect(asEditor.metadata.map((entry: { key: string }) => entry.key)).toEqual([
      'location_note',
      'geo_latitude',
      'geo_longitude',
      'geo_address',
      '_edit_last',
      '_shoot_notes',
    ]);
    expect(asEditor.metadata.at(-1)).toEqual({ id: '507', key: '_shoot_notes', value: { camera: 'X100V', rolls: 2 } });
  });

  it('hides them from a caller who cannot', () => {
    expect(asModerator.metadata.map((entry: { key: string }) => entry.key)).toEqual([
      'location_note',
      'geo_latitude',
      'geo_longitude',
      'geo_address',
    ]);
  });

  it('is false when there is none', async () => {
    const { body } = await restore(harness, await harness.tokenFor('admin'), 1, 105);
    expect(body.metadata).toBe(false);
  });

  it('gives the location from the geo keys', () => {
    expect(asEditor.geo).toEqual({ latitude: 57.7089, longitude: 11.9746, address: 'North pier, Harbour Town' });
    expect(asModerator.geo).toEqual(asEditor.geo);
  });

  it('hides the location from a caller who cannot edit when geo_public is off', async () => {
    await harness.server.built.db
      .insertInto('post_meta')
      .values({ id: 599, post_id: 107, meta_key: 'geo_public', meta_value: '"0"' })
      .execute();
    const reader = await restore(harness, await harness.tokenFor('moderator'), 1, 107);
    const editor = await restore(harness, await harness.tokenFor('admin'), 1, 107);
    expect(reader.body.geo).toBe(false);
    expect(editor.body.geo).toMatchObject({ latitude: 57.7089 });
  });
});

describe('author', () => {
  it('has the reference shape; email only with context=edit to a caller who can edit', () => {
    expect(asEditor.author).toEqual({
      ID: 1,
      login: 'admin',
      email: 'ada@demo.example.com',
      name: 'Ada Admin',
      first_name: 'Ada',
      last_name: 'Admin',
      nice_name: 'admin',
      URL: '',
      avatar_URL: 'https://demo.example.com/avatars/admin.png',
      profile_URL: 'https://demo.example.com/author/admin/',
      site_ID: 1,
    });
    expect(asModerator.author.email).toBe(false);
  });

  it('has email false with context=display even for an editor', async () => {
    const { body } = await restore(harness, await harness.tokenFor('editor'), 1, 107);
    expect(body.author.email).toBe(false);
  });
});

describe('capabilities', () => {
  it('are the caller’s own rights on the post', async () => {
    expect(asEditor.capabilities).toEqual({ publish_post: true, delete_post: true, edit_post: true });
    expect(asModerator.capabilities).toEqual({ publish_post: false, delete_post: true, edit_post: false });
    const contributor = await restore(harness, await harness.tokenFor('contributor'), 1, 102);
    expect(contributor.body.capabilities).toEqual({ publish_post: false, delete_post: true, edit_post: true });
    const author = await restore(harness, await harness.tokenFor('author'), 1, 101);
    expect(author.body.capabilities).toEqual({ publish_post: true, delete_post: true, edit_post: true });
  });
});

describe('the caller’s own view', () => {
  it('shows whether the caller likes the post and follows the site', async () => {
    expect(asEditor).toMatchObject({ like_count: 3, i_like: false, is_following: false });
    const editor = await restore(harness, await harness.tokenFor('editor'), 1, 107);
    expect(editor.body).toMatchObject({ like_count: 3, i_like: true, is_following: true, is_reblogged: false });
  });
});

describe('links', () => {
  it('meta.links are absolute, on PUBLIC_URL and the numeric site ID', () => {
    expect(asEditor.meta).toEqual({
      links: {
        self: 'https://api.example.test/rest/v1.1/sites/1/posts/107',
        help: 'https://api.example.test/rest/v1.1/sites/1/posts/107/help',
        site: 'https://api.example.test/rest/v1.1/sites/1',
        replies: 'https://api.example.test/rest/v1.1/sites/1/posts/107/replies/',
        likes: 'https://api.example.test/rest/v1.1/sites/1/posts/107/likes/',
      },
    });
  });

  it('give a published post its permalink, and other_URLs {}', () => {
    expect(asEditor).toMatchObject({
      URL: 'https://demo.example.com/2026/02/09/morning-at-the-harbour/',
      short_URL: 'https://wp.me/p1-1J',
      guid: 'https://demo.example.com/?p=107',
      other_URLs: {},
    });
  });

  it('give an unpublished post its plain link, and other_URLs with its sample permalink (slug as a placeholder)', async () => {
    const { body } = await restore(harness, await harness.tokenFor('admin'), 1, 103);
    expect(body).toMatchObject({
      status: 'pending',
      URL: 'https://demo.example.com/?p=103',
      other_URLs: {
        permalink_URL: 'https://demo.example.com/2026/03/04/%postname%/',
        suggested_slug: 'spring-opening-hours',
      },
    });
  });
});

describe('dates and identity', () => {
  it('are ISO 8601 with an offset, and global_ID is stable per post', async () => {
    expect(asEditor.date).toBe('2026-02-09T12:30:00+00:00');
    expect(asEditor.modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(asEditor.global_ID).toMatch(/^[0-9a-f]{32}$/);
    expect(asModerator.global_ID).toBe(asEditor.global_ID);
    expect(asEditor.publicize_URLs).toEqual(['https://social.example/@harbourtown/1001']);
  });
});
