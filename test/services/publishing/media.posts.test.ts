import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Posts with pictures: files sent with a post write (`media[]`, as the
 * apps' v1.2 post saves carry them) join the site's media library attached
 * to the post; `featured_image` names one by ID; the post reads back with
 * `post_thumbnail`, `attachments`, `attachment_count` and its gallery drawn
 * from them.
 */

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'author', 'contributor']) tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

async function postForm(login: string, path: string, form: FormData) {
  const response = await harness.call(`${harness.server.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${tokens[login]}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('a post with a featured image and a gallery', () => {
  it('attaches the files of a v1.2 create, features one by ID, and reads back with them', async () => {
    const form = new FormData();
    form.append('title', 'Boats in the harbour');
    form.append('content', 'The boats came in.');
    form.append(
      'media[]',
      new Blob([new Uint8Array(await png(300, 200, '#224488'))], { type: 'image/png' }),
      'blue.png',
    );
    form.append(
      'media[]',
      new Blob([new Uint8Array(await png(200, 300, '#884422'))], { type: 'image/png' }),
      'red.png',
    );
    form.append('media_attrs[0][caption]', 'The blue boat');
    form.append('media_attrs[1][caption]', 'The red boat');
    const created = await postForm('author', '/rest/v1.2/sites/1/posts/new?context=edit', form);
    expect(created.status).toBe(200);
    expect(created.body.media_errors).toBeUndefined();
    expect(created.body.attachment_count).toBe(2);
    const attached = Object.values(created.body.attachments as Record<string, any>);
    expect(attached.map((item) => [item.file, item.post_ID]).sort()).toEqual([
      ['blue.png', created.body.ID],
      ['red.png', created.body.ID],
    ]);
    const [blue, red] = ['blue.png', 'red.png'].map((file) => attached.find((item) => item.file === file));
    expect([blue.caption, red.caption]).toEqual(['The blue boat', 'The red boat']);

    const edited = await callJson(harness, 'POST', `/rest/v1.1/sites/1/posts/${created.body.ID}`, tokens.author, {
      featured_image: String(blue.ID),
      content: `[gallery ids="${red.ID},${blue.ID}"]`,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.featured_image).toBe(blue.URL);
    expect(edited.body.post_thumbnail).toMatchObject({ ID: blue.ID, URL: blue.URL, width: 300, height: 200 });
    expect(edited.body.content).toContain(red.URL);
    expect(edited.body.content).toContain(blue.URL);

    const read = await callJson(harness, 'GET', `/rest/v1.1/sites/1/posts/${created.body.ID}`);
    expect(read.body.post_thumbnail.ID).toBe(blue.ID);
    expect(Object.keys(read.body.attachments).map(Number).sort()).toEqual([blue.ID, red.ID].sort());
    // The featured image's file answers from this deployment.
    const file = await harness.call(read.body.post_thumbnail.URL);
    expect(file.status).toBe(200);

    const removed = await callJson(harness, 'POST', `/rest/v1.1/sites/1/posts/${created.body.ID}`, tokens.author, {
      featured_image: '',
    });
    expect(removed.body.post_thumbnail).toBeNull();
  });

  it('deleting a featured image leaves the post without one', async () => {
    const form = new FormData();
    form.append('media[]', new Blob([new Uint8Array(await png(20, 20, '#00aa00'))], { type: 'image/png' }), 'g.png');
    const [item] = (await postForm('author', '/rest/v1.1/sites/1/media/new', form)).body.media;
    const post = await callJson(harness, 'POST', '/rest/v1.1/sites/1/posts/new', tokens.author, {
      title: 'Green',
      featured_image: String(item.ID),
    });
    expect(post.body.post_thumbnail.ID).toBe(item.ID);
    await callJson(harness, 'POST', `/rest/v1.1/sites/1/media/${item.ID}/delete`, tokens.author);
    const read = await callJson(harness, 'GET', `/rest/v1.1/sites/1/posts/${post.body.ID}`);
    expect(read.body.post_thumbnail).toBeNull();
    expect(read.body.featured_image).toBe('');
  });

  it('a featured_image of another site’s attachment is not taken', async () => {
    const form = new FormData();
    form.append('media[]', new Blob([new Uint8Array(await png(10, 10, '#999999'))], { type: 'image/png' }), 'o.png');
    const [item] = (await postForm('admin', '/rest/v1.1/sites/2/media/new', form)).body.media;
    const post = await callJson(harness, 'POST', '/rest/v1.1/sites/1/posts/new', tokens.admin, {
      title: 'Elsewhere',
      featured_image: String(item.ID),
    });
    expect(post.body.post_thumbnail).toBeNull();
  });

  it('a contributor’s files are listed in media_errors (unauthorized), the post saved', async () => {
    const form = new FormData();
    form.append('title', 'Draft with a picture');
    form.append('status', 'draft');
    form.append('media[]', new Blob([new Uint8Array(await png(10, 10, '#123456'))], { type: 'image/png' }), 'c.png');
    const created = await postForm('contributor', '/rest/v1.2/sites/1/posts/new', form);
    expect(created.status).toBe(200);
    expect(created.body.media_errors).toEqual([
      { file: 'c.png', error: 'unauthorized', message: 'User cannot upload media.' },
    ]);
    expect(created.body.attachment_count).toBe(0);
  });
});
