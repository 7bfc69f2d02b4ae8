import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restore, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer;
let admin: string;
beforeAll(async () => {
  harness = await startPublishing();
  admin = await harness.tokenFor('admin');
});
afterAll(() => harness?.close());

describe('the site is named by numeric ID or by domain', () => {
  it('finds site 1 by its ID', async () => {
    const { status, body } = await restore(harness, admin, '1', 108);
    expect(status).toBe(200);
    expect(body.site_ID).toBe(1);
  });

  it('finds site 1 by its domain', async () => {
    const { status, body } = await restore(harness, admin, 'demo.example.com', 102);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ID: 102, site_ID: 1, status: 'draft' });
  });

  it('matches the domain exactly', async () => {
    for (const site of ['DEMO.example.com', 'www.demo.example.com', 'demo.example.com.']) {
      expect((await restore(harness, admin, site, 108)).body.error).toBe('unknown_blog');
    }
  });
});

describe('a site in a sub-folder is named domain::path, URL-encoded', () => {
  it('finds site 2 at demo.example.com::blog (sent as demo.example.com%3A%3Ablog)', async () => {
    const res = await harness.call(
      `${harness.server.url}/rest/v1.1/sites/demo.example.com%3A%3Ablog/posts/120/restore`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin}` },
      },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { URL: string; meta: { links: { site: string } } };
    expect(body).toMatchObject({ ID: 120, site_ID: 2, status: 'publish', slug: 'hello-from-the-blog' });
    expect(body.URL).toBe('https://demo.example.com/blog/2026/02/01/hello-from-the-blog/');
    expect(body.meta.links.site).toBe(`${harness.server.config.publicUrl}/rest/v1.1/sites/2`);
  });

  it('encodes the site through the SDK the same way', async () => {
    const { status, body } = await restore(harness, admin, 'demo.example.com::blog', 120);
    expect(status).toBe(200);
    expect(body.site_ID).toBe(2);
  });
});

describe('the path', () => {
  it('accepts a trailing slash', async () => {
    const res = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/103/restore/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ID: 103, status: 'pending' });
  });

  it('matches no route for a non-numeric post ID', async () => {
    const res = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/posts/abc/restore`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });
});
