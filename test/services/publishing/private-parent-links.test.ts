import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, list, read, savePost, startPublishing, type PublishingTestServer } from './support.js';

/**
 * Issue 52, item 7: a page's links are built on its ancestors' slugs (a
 * private parent's slug is its title), so they show them only to a caller
 * who may read every ancestor (`ancestorsFor`); anyone else gets the link
 * that always reaches the page, `?page_id=ID`. The platform's `get_page_uri`
 * shows every ancestor's slug (see docs/publishing.md's differences).
 */

let harness: PublishingTestServer;
const tokens: Record<string, string> = {};
let parentId: number;
let childId: number;
let grandchildId: number;
beforeAll(async () => {
  harness = await startPublishing();
  for (const login of ['admin', 'author']) tokens[login] = await harness.tokenFor(login);
  const page = (title: string, status: string, parent?: number) =>
    savePost(harness, tokens.admin, 'new', { title, content: 'x', type: 'page', status, parent });
  parentId = (await page('Secret merger plans', 'private')).body.ID as number;
  childId = (await page('Opening hours', 'publish', parentId)).body.ID as number;
  grandchildId = (await page('Winter', 'publish', childId)).body.ID as number;
});
afterAll(() => harness?.close());

const SECRET = /secret-merger-plans/;

describe('a public page below a private one', () => {
  it('links to itself without the private slug for an anonymous reader and an author, everywhere they read it', async () => {
    for (const token of [undefined, tokens.author]) {
      for (const id of [childId, grandchildId]) {
        const single = await read(harness, token, 1, id);
        expect(single.status).toBe(200);
        expect(single.body.URL).toBe(`https://demo.example.com/?page_id=${id}`);
        expect(JSON.stringify(single.body)).not.toMatch(SECRET);
        const v12 = await callJson(harness, 'GET', `/rest/v1.2/sites/1/posts/${id}`, token);
        expect(v12.body.URL).toBe(`https://demo.example.com/?page_id=${id}`);
      }
      const listed = await list(harness, token, 1, { type: 'page', number: 100 });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toMatch(SECRET);
      const replies = await callJson(harness, 'GET', `/rest/v1.1/sites/1/posts/${childId}/replies`, token);
      expect(replies.status).toBe(200);
      expect(replies.text).not.toMatch(SECRET);
    }
  });

  it('shows its path under the parent to a caller who may read the parent', async () => {
    const single = await read(harness, tokens.admin, 1, childId);
    expect(single.body.URL).toBe('https://demo.example.com/secret-merger-plans/opening-hours/');
    const deeper = await read(harness, tokens.admin, 1, grandchildId);
    expect(deeper.body.URL).toBe('https://demo.example.com/secret-merger-plans/opening-hours/winter/');
    expect((await read(harness, tokens.admin, 1, parentId)).body.URL).toBe(
      'https://demo.example.com/secret-merger-plans/',
    );
  });
});
