import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

const stored = async (postId: number) => (await harness.store.findPost(1, postId))!;

describe('context=display (the default) renders title, content and excerpt as HTML', () => {
  let body: Record<string, any>;
  beforeAll(async () => {
    body = (await restore(harness, admin, 1, 107)).body;
  });

  it('expands [gallery] from the post’s attachments, in the ids order', () => {
    expect(body.content).toContain(
      '<div id="gallery-1" class="gallery galleryid-107 gallery-columns-3 gallery-size-thumbnail">',
    );
    const items = [...body.content.matchAll(/<figure class="gallery-item">[\s\S]*?<\/figure>/g)].map(
      (match) => match[0],
    );
    expect(items).toHaveLength(3);
    // The demo's pictures are files of this deployment (each in a folder named by its ID in hex).
    expect(items[0]).toContain(
      `src="${harness.server.config.publishing.media.baseUrl}/1/000000000000012d/boat-01.jpg"`,
    );
    expect(items[1]).toContain('class="gallery-icon portrait"');
    expect(items[2]).toContain('boat-03.jpg');
  });

  it('expands [caption] and [embed]', () => {
    expect(body.content).toContain(
      '<figure id="attachment_301" aria-describedby="caption-attachment-301" style="width: 1200px" class="wp-caption aligncenter">',
    );
    expect(body.content).toContain(
      '<figcaption id="caption-attachment-301" class="wp-caption-text">The first boat in</figcaption>',
    );
    expect(body.content).toContain(
      '<a href="https://video.example.org/watch?v=harbour-dawn">https://video.example.org/watch?v=harbour-dawn</a>',
    );
    expect(body.content).not.toMatch(/\[(gallery|caption|embed)/);
  });

  it('adds paragraphs and line breaks, and keeps an unknown shortcode as written', () => {
    expect(body.content).toMatch(
      /^<p>The boats came in before sunrise, one after another.<br \/>\nThe light was still blue when the first nets came ashore.<\/p>\n/,
    );
    expect(body.content).toContain('<p>A few more from the north pier:</p>');
    expect(body.content).toContain('<p>[pullquote]Every morning is different at the harbour.[/pullquote]</p>');
  });

  it('generates the excerpt from the content when none is stored', () => {
    expect(body.excerpt).toMatch(/^<p>The boats came in before sunrise, one after another\. The light was still blue/);
    expect(body.excerpt).not.toContain('[gallery');
  });

  it('renders a stored excerpt as a paragraph', async () => {
    const { body: post } = await restore(harness, admin, 1, 101);
    expect(post.excerpt).toBe('<p>Photos from the harbour at dawn.</p>\n');
    expect(post.title).toBe("The harbour's first light");
  });
});

describe('context=edit returns the stored text untouched', () => {
  it('keeps shortcodes, line breaks and an empty excerpt as stored', async () => {
    const { body } = await restore(harness, admin, 1, 107, { context: 'edit' });
    const post = await stored(107);
    expect(body.content).toBe(post.content);
    expect(body.content).toContain('[gallery ids="301,302,303" columns="3"]');
    expect(body.title).toBe(post.title);
    expect(body.excerpt).toBe('');
  });

  it('is allowed to a contributor on their own draft', async () => {
    const { status, body } = await restore(harness, await harness.tokenFor('contributor'), 1, 102, { context: 'edit' });
    expect(status).toBe(200);
    expect(body.content).toBe('Fresh mackerel, and the first strawberries of the year.');
    expect(body.author.email).toBe('cora@demo.example.com');
  });
});

describe('any other context', () => {
  it.each(['bogus', 'EDIT', ''])('%j means display', async (context) => {
    const { status, body } = await restore(harness, admin, 1, 108, { context });
    expect(status).toBe(200);
    expect(body.content).toBe(
      '<p>This is the harbour town demo site.</p>\n<p>Its posts live in the trash and out of it.</p>\n',
    );
    expect(body.author.email).toBe(false);
  });

  it('is not subject to the edit check', async () => {
    const { status } = await restore(harness, await harness.tokenFor('moderator'), 1, 108, { context: 'Edit' });
    expect(status).toBe(200);
  });
});
