import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnableIn } from '../../support/runnableHtml.js';
import { callJson, list, read, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Issue 52, item 3: rendering does not turn filtered text into markup.
 * Shortcodes written across the attributes of a tag stay text
 * (`render/display.ts`, `outsideTags`), through every read that shows a
 * post's text: the single read, the list, v1.2's read and list, the autosave.
 */

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber'])
    tokens[login] = await harness.tokenFor(login);
});
afterAll(() => harness?.close());

const api = (method: 'GET' | 'POST', path: string, login?: string, body?: unknown) =>
  callJson(harness, method, path, login === undefined ? undefined : tokens[login], body);

/** Whatever of an answer's texts a browser would run, as a browser parses them (`runnableIn`). */
const runnable = runnableIn;

/**
 * The families of the report: a registered shortcode opened inside an
 * attribute value and closed outside it, so that expanding (or stripping)
 * it would move the attribute's end and make text an attribute.
 */
const SHORTCODE_FAMILIES = {
  caption: '<img src="x" alt="[caption x=" />]x" onerror="alert(document.domain)" y="[/caption]" <b>z</b>',
  gallery: '<a href="https://example.com/" title="[gallery]">[/gallery]" onfocus="alert(1)" autofocus x="</a>',
  embed: '<b title="[embed]">[/embed]" onmouseover="alert(1)" x="</b>',
  captionInExcerpt: '<i title="[caption]">[/caption]" onclick="alert(1)" x="</i>',
};

describe('shortcodes inside attribute values (item 3)', () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    for (const [family, content] of Object.entries(SHORTCODE_FAMILIES)) {
      const body =
        family === 'captionInExcerpt'
          ? { title: family, content: 'text', excerpt: content, status: 'publish' }
          : { title: family, content, status: 'publish' };
      const saved = await savePost(harness, tokens.author, 'new', body);
      expect(saved.status).toBe(200);
      ids[family] = saved.body.ID as number;
    }
    // A post without an excerpt of its own: the excerpt made from the content strips the shortcodes.
    const saved = await savePost(harness, tokens.author, 'new', {
      title: 'generated excerpt',
      content: SHORTCODE_FAMILIES.caption,
      status: 'publish',
    });
    ids.generated = saved.body.ID as number;
  });

  it('stay text in the single read, anonymous and in edit context', async () => {
    for (const [family, id] of Object.entries(ids)) {
      const anonymous = await read(harness, undefined, 1, id);
      expect(anonymous.status, family).toBe(200);
      expect(runnable([anonymous.body.content, anonymous.body.excerpt]), family).toEqual([]);
      const edit = await read(harness, tokens.author, 1, id, { context: 'edit' });
      expect(runnable([edit.body.content, edit.body.excerpt]), family).toEqual([]);
    }
    // The caption stays as written, brackets and all.
    expect((await read(harness, undefined, 1, ids.caption!)).body.content).toContain('[caption x=');
  });

  it('stay text in the list, and in v1.2\u2019s read and list', async () => {
    const listed = (await list(harness, undefined, 1, { number: 100 })).body.posts as Record<string, unknown>[];
    for (const id of Object.values(ids)) {
      const post = listed.find((candidate) => candidate.ID === id);
      expect(post).toBeDefined();
      expect(runnable([post?.content, post?.excerpt])).toEqual([]);
    }
    for (const id of Object.values(ids)) {
      const v12 = await api('GET', `/rest/v1.2/sites/1/posts/${id}`);
      expect(v12.status).toBe(200);
      expect(runnable([v12.body.content, v12.body.excerpt])).toEqual([]);
    }
    const v12List = await api('GET', '/rest/v1.2/sites/1/posts?number=100');
    expect(v12List.status).toBe(200);
    expect(
      runnable((v12List.body.posts as Record<string, unknown>[]).map((post) => [post.content, post.excerpt])),
    ).toEqual([]);
  });

  it('stay text in an autosave and its preview read', async () => {
    const pending = await savePost(harness, tokens.contributor, 'new', { title: 'p', content: 'p', status: 'pending' });
    const id = pending.body.ID as number;
    for (const content of Object.values(SHORTCODE_FAMILIES)) {
      expect((await api('POST', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'contributor', { content })).status).toBe(
        200,
      );
      expect(runnable((await api('GET', `/rest/v1.1/sites/1/posts/${id}/autosave`, 'editor')).body)).toEqual([]);
    }
  });

  it('outside attributes, are still expanded', async () => {
    const saved = await savePost(harness, tokens.author, 'new', {
      title: 'embed',
      content: '<b title="[embed]x[/embed]">b</b> [embed]https://video.example.org/v[/embed]',
      status: 'publish',
    });
    const content = (await read(harness, undefined, 1, saved.body.ID as number)).body.content as string;
    expect(content).toContain('<b title="[embed]x[/embed]">b</b>');
    expect(content).toMatch(
      /<figure class="wp-block-embed">\s*<div class="wp-block-embed__wrapper"><a href="https:\/\/video\.example\.org\/v">/,
    );
  });
});
