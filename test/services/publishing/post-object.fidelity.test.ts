import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base62 } from '../../../src/services/publishing/domain/links.js';
import { read, restore, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Details of the post object a client of the real API relies on, each as
 * the platform's v1.1 endpoint builds it: every taxonomy of the post type
 * under `terms`, the sample permalink's placeholder, `author.site_ID`,
 * attachments' `meta.links`, wp.me short links, and the permalink of a
 * trashed post.
 */
let harness: PublishingTestServer;
let admin: string;
let publicUrl: string;

beforeAll(async () => {
  harness = await startPublishing({ PUBLIC_URL: 'https://api.example.test' });
  admin = await harness.tokenFor('admin');
  publicUrl = harness.server.config.publicUrl;
});
afterAll(() => harness?.close());

const db = () => harness.server.built.db;

describe('terms', () => {
  it('list every taxonomy of a post, {} where it has no term', async () => {
    const { body } = await restore(harness, admin, 1, 105);
    expect(Object.keys(body.terms)).toEqual(['category', 'post_tag', 'post_format']);
    expect(Object.keys(body.terms.category)).toEqual(['News']);
    expect(body.terms.post_tag).toEqual({});
    expect(body.terms.post_format).toEqual({});
  });

  it('list the portfolio taxonomies of a portfolio project, and none for a page', async () => {
    const project = await restore(harness, admin, 1, 111);
    expect(project.body.terms).toEqual({ 'jetpack-portfolio-type': {}, 'jetpack-portfolio-tag': {} });
    const page = await read(harness, undefined, 1, 112);
    expect(page.body.terms).toEqual({});
  });

  it('show a portfolio project type with its parent and its links', async () => {
    await db()
      .insertInto('terms')
      .values({
        id: 40,
        site_id: 1,
        taxonomy: 'jetpack-portfolio-type',
        name: 'Portraits',
        slug: 'portraits',
        description: '',
        parent_id: 0,
      })
      .execute();
    await db().insertInto('post_terms').values({ post_id: 111, term_id: 40 }).execute();
    const { body } = await read(harness, admin, 1, 111);
    expect(body.terms['jetpack-portfolio-type'].Portraits).toEqual({
      ID: 40,
      name: 'Portraits',
      slug: 'portraits',
      description: '',
      post_count: 0,
      parent: 0,
      meta: {
        links: {
          self: `${publicUrl}/rest/v1.1/sites/1/taxonomies/jetpack-portfolio-type/terms/slug:portraits`,
          help: `${publicUrl}/rest/v1.1/sites/1/taxonomies/jetpack-portfolio-type/terms/slug:portraits/help`,
          site: `${publicUrl}/rest/v1.1/sites/1`,
        },
      },
    });
  });
});

describe('other_URLs (the sample permalink)', () => {
  it('keeps %postname% for a post, with the suggested slug', async () => {
    const { body } = await restore(harness, admin, 1, 103);
    expect(body.other_URLs).toEqual({
      permalink_URL: 'https://demo.example.com/2026/03/04/%postname%/',
      suggested_slug: 'spring-opening-hours',
    });
  });

  it('keeps %pagename% after the parents\u2019 path for a page, and for other post types', async () => {
    await restore(harness, admin, 1, 106);
    await db().updateTable('posts').set({ status: 'draft' }).where('id', '=', 106).execute();
    expect((await read(harness, admin, 1, 106)).body.other_URLs).toEqual({
      permalink_URL: 'https://demo.example.com/about/%pagename%/',
      suggested_slug: 'our-team',
    });
    expect((await read(harness, admin, 1, 111)).body.other_URLs).toEqual({
      permalink_URL: 'https://demo.example.com/jetpack-portfolio/%pagename%/',
      suggested_slug: 'harbour-portrait-series',
    });
  });

  it('suggests a slug made from the title when there is none, unique among the site\u2019s posts', async () => {
    await restore(harness, admin, 1, 102);
    await db()
      .updateTable('posts')
      .set({ slug: '', title: 'Welcome to the demo site' })
      .where('id', '=', 102)
      .execute();
    expect((await read(harness, admin, 1, 102)).body.other_URLs.suggested_slug).toBe('welcome-to-the-demo-site-2');
    await db().updateTable('posts').set({ slug: 'welcome-to-the-demo-site' }).where('id', '=', 102).execute();
    expect((await read(harness, admin, 1, 102)).body.other_URLs.suggested_slug).toBe('welcome-to-the-demo-site-2');
  });

  it('is {} for a published post', async () => {
    expect((await read(harness, undefined, 1, 108)).body.other_URLs).toEqual({});
  });
});

describe('author', () => {
  it('carries the author\u2019s primary site as site_ID', async () => {
    expect((await read(harness, undefined, 1, 108)).body.author).toMatchObject({ ID: 1, login: 'admin', site_ID: 1 });
  });

  it('has no site_ID for an author with no site', async () => {
    await db()
      .insertInto('users')
      .values({
        id: 9,
        login: 'former',
        email: 'former@demo.example.com',
        display_name: 'Fay Former',
        first_name: 'Fay',
        last_name: 'Former',
        nice_name: 'former',
        url: '',
        avatar_url: 'https://demo.example.com/avatars/former.png',
      })
      .execute();
    await db().updateTable('posts').set({ author_id: 9 }).where('id', '=', 112).execute();
    const { body } = await read(harness, undefined, 1, 112);
    expect(body.author).toMatchObject({ ID: 9, login: 'former' });
    expect(body.author).not.toHaveProperty('site_ID');
  });
});

describe('attachments', () => {
  it('carry meta.links: self, help, site, and the post they belong to', async () => {
    const { body } = await restore(harness, admin, 1, 101);
    expect(body.attachments['201'].meta).toEqual({
      links: {
        self: `${publicUrl}/rest/v1.1/sites/1/media/201`,
        help: `${publicUrl}/rest/v1.1/sites/1/media/201/help`,
        site: `${publicUrl}/rest/v1.1/sites/1`,
        parent: `${publicUrl}/rest/v1.1/sites/1/posts/101`,
      },
    });
  });
});

describe('short_URL (wp.me)', () => {
  it('writes numbers in the platform\u2019s base 62', () => {
    expect([0, 9, 10, 35, 36, 61, 62, 101, 3844].map(base62)).toEqual([
      '0',
      '9',
      'a',
      'z',
      'A',
      'Z',
      '10',
      '1D',
      '100',
    ]);
  });

  it('is p for a post, P for a page, "" for a type without short links', async () => {
    expect((await read(harness, undefined, 1, 101)).body.short_URL).toBe('https://wp.me/p1-1D');
    expect((await read(harness, undefined, 1, 112)).body.short_URL).toBe('https://wp.me/P1-1O');
    expect((await read(harness, admin, 1, 111)).body.short_URL).toBe('');
  });

  it('uses the slug of a published post whose slug is short and has no dash', async () => {
    await db().updateTable('posts').set({ slug: 'welcome' }).where('id', '=', 108).execute();
    expect((await read(harness, undefined, 1, 108)).body.short_URL).toBe('https://wp.me/s1-welcome');
    await db().updateTable('posts').set({ slug: 'welcome-to-the-demo-site' }).where('id', '=', 108).execute();
  });

  it('is on PUBLISHING_SHORTLINK_BASE when set', async () => {
    const other = await startPublishing({ PUBLISHING_SHORTLINK_BASE: 'https://s.example.test/' });
    try {
      expect((await read(other, undefined, 1, 108)).body.short_URL).toBe('https://s.example.test/p1-1K');
    } finally {
      await other.close();
    }
  });
});

describe('URL', () => {
  it('of a trashed post is its permalink with the __trashed slug; of a scheduled one, the plain link', async () => {
    expect((await read(harness, admin, 1, 113)).body.URL).toBe(
      'https://demo.example.com/2026/01/05/welcome-to-the-demo-site__trashed/',
    );
    const future = await restore(harness, admin, 1, 105);
    expect(future.body).toMatchObject({ status: 'future', URL: 'https://demo.example.com/?p=105' });
  });
});
