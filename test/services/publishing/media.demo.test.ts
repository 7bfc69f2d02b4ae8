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
  it('the published demo post has a featured image anyone reads: a JPEG of its size, resized with ?w=', async () => {
    const post = await callJson(harness, 'GET', '/rest/v1.1/sites/1/posts/108');
    expect(post.status).toBe(200);
    const featured = post.body.featured_image as string;
    expect(post.body.post_thumbnail).toMatchObject({ ID: 202, URL: featured, width: 1200, height: 800 });
    expect(post.body.attachment_count).toBe(1);
    expect(featured.startsWith(harness.server.config.publishing.media.baseUrl)).toBe(true);
    const whole = await image(featured);
    expect(whole).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(await sharp(whole.bytes).metadata()).toMatchObject({ width: 1200, height: 800 });
    const small = await image(`${featured}?w=300`);
    expect(small.status).toBe(200);
    expect(small.type).toMatch(/^image\//);
    expect(await sharp(small.bytes).metadata()).toMatchObject({ width: 300, height: 200 });
  });

  // Posts 101 and 107 are in the trash: their editors read them.
  it('a trashed demo post’s featured image and the picture in its content answer from this deployment', async () => {
    const post = await callJson(harness, 'GET', '/rest/v1.1/sites/1/posts/101', admin);
    expect(post.status).toBe(200);
    const featured = post.body.featured_image as string;
    expect(featured).toBe(post.body.post_thumbnail.URL);
    const whole = await image(featured);
    expect(whole).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(await sharp(whole.bytes).metadata()).toMatchObject({ width: 640, height: 480 });
    const sources = [...(post.body.content as string).matchAll(/<img[^>]* src="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual([featured]);
  });

  it('the gallery post’s attachments all answer: its pictures, its PDF and its sound', async () => {
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
    expect(others.map((item) => item.mime_type).sort()).toEqual(['application/pdf', 'audio/mpeg']);
    for (const item of others) {
      expect(item.URL.startsWith(harness.server.config.publishing.media.baseUrl)).toBe(true);
      const answered = await image(item.URL);
      expect(answered).toMatchObject({ status: 200, type: item.mime_type });
      if (item.mime_type === 'application/pdf') {
        expect(answered.bytes.subarray(0, 5).toString()).toBe('%PDF-');
        expect(answered.bytes.toString('latin1')).toMatch(/\(Route map\) Tj[\s\S]*%%EOF\n$/);
      } else {
        // An MPEG-1 Layer III frame header (sync, 128 kbit/s, 44.1 kHz) at the start of each 417-byte frame.
        expect([...answered.bytes.subarray(0, 3)]).toEqual([0xff, 0xfb, 0x90]);
        expect(answered.bytes.length % 417).toBe(0);
      }
    }
    // The pictures its content names (the gallery's and the captioned one) are this deployment's too.
    const content = `${post.body.content as string}`;
    expect(content).not.toMatch(/demo\.example\.com\/files/);
    const item = await callJson(harness, 'GET', '/rest/v1.1/sites/1/media/201');
    expect((await image(item.body.URL)).status).toBe(200);
  });
});
