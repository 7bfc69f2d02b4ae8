import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../support/server.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * `npm start`'s demo sites have pictures (issue 53): loading the demo data
 * puts a picture for each demo image attachment into the media storage, so
 * a demo post's featured image and its gallery's attachments answer an
 * image from this deployment, resized with `?w=`.
 */

let harness: PublishingTestServer;
let admin: string;
// On PostgreSQL the demo is loaded afresh in a schema of the test's own (the run's template keeps no files).
const onPostgres = (process.env.TEST_DATABASE_URL ?? '').startsWith('postgres');
const schema = `demo_media_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
beforeAll(async () => {
  harness = await startPublishing(onPostgres ? { DATABASE_SCHEMA: schema } : {});
  admin = await harness.tokenFor('admin');
});
afterAll(async () => {
  await harness?.close();
  if (onPostgres) await dropSchema(process.env.TEST_DATABASE_URL as string, schema);
});

async function image(url: string) {
  const response = await harness.call(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), bytes };
}

describe('the demo data’s pictures', () => {
  // Posts 101 and 107 (the demo's posts with a featured image) are in the trash: their editors read them.
  it('a demo post’s featured image answers a JPEG of its size, resized with ?w=', async () => {
    const post = await callJson(harness, 'GET', '/rest/v1.1/sites/1/posts/101', admin);
    expect(post.status).toBe(200);
    const featured = post.body.featured_image as string;
    expect(featured).toBe(post.body.post_thumbnail.URL);
    expect(featured.startsWith(harness.server.config.publishing.media.baseUrl)).toBe(true);
    const whole = await image(featured);
    expect(whole).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(await sharp(whole.bytes).metadata()).toMatchObject({ width: 640, height: 480 });
    const small = await image(`${featured}?w=160`);
    expect(small.status).toBe(200);
    expect(small.type).toMatch(/^image\//);
    expect(await sharp(small.bytes).metadata()).toMatchObject({ width: 160, height: 120 });
  });

  it('the gallery post’s image attachments answer too (and the media read’s URL); its PDF and sound keep their rows', async () => {
    const post = await callJson(harness, 'GET', '/rest/v1.1/sites/1/posts/107', admin);
    const attachments = Object.values(post.body.attachments as Record<string, any>);
    const images = attachments.filter((item) => item.mime_type === 'image/jpeg');
    expect(images.length).toBeGreaterThan(10);
    for (const item of images.slice(0, 3)) {
      const answered = await image(item.URL);
      expect(answered).toMatchObject({ status: 200, type: 'image/jpeg' });
      expect(await sharp(answered.bytes).metadata()).toMatchObject({ width: item.width, height: item.height });
    }
    const others = attachments.filter((item) => item.mime_type !== 'image/jpeg');
    expect(others.map((item) => item.URL)).toEqual([
      expect.stringMatching(/^https:\/\/demo\.example\.com\/files\//),
      expect.stringMatching(/^https:\/\/demo\.example\.com\/files\//),
    ]);
    const item = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media/201');
    expect((await image(item.body.URL)).status).toBe(200);
  });
});
