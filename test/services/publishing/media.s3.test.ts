import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Env } from '../../support/s3.js';
import { callJson, startPublishing, type PublishingTestServer } from './support.js';

/**
 * The media library on the S3 path (MEDIA_STORAGE=s3://…), against the run's
 * S3-compatible server (s3rver, started once per run by the global setup),
 * with two instances on one store: what one uploads the other lists, reads
 * and serves; what one deletes stops answering on the other at once.
 */

let first: PublishingTestServer;
let second: PublishingTestServer;
let token: string;
beforeAll(async () => {
  const env = s3Env(`run-${process.pid}-${Date.now()}`);
  const onPostgres = (process.env.TEST_DATABASE_URL ?? '').startsWith('postgres');
  // On SQLite both instances open one file; on PostgreSQL the second opens the first one's database.
  const sqlite: Record<string, string> = onPostgres
    ? {}
    : { DATABASE_URL: `sqlite:${mkdtempSync(join(tmpdir(), 'media-s3-'))}/app.db` };
  first = await startPublishing({ ...env, ...sqlite });
  const shared: Record<string, string> = onPostgres
    ? { DATABASE_URL: first.server.config.databaseUrl, DATABASE_SCHEMA: 'public' }
    : sqlite;
  second = await startPublishing({ ...env, ...shared });
  token = await first.tokenFor('author');
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

async function upload(harness: PublishingTestServer, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('media[]', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const response = await harness.call(`${harness.server.url}/rest/v1.1/sites/1/media/new`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return (await response.json()) as Record<string, any>;
}

describe('media on S3, two instances', () => {
  it('one instance uploads; the other lists, reads and serves it; a delete on one stops both', async () => {
    const bytes = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const uploaded = await upload(first, 's3-boat.png', bytes);
    expect(uploaded).toMatchObject({ media: expect.any(Array) });
    const [item] = uploaded.media;
    const listed = await callJson(second, 'GET', '/rest/v1.1/sites/1/media?search=s3-boat', token);
    expect(listed.body.media.map((media: any) => media.ID)).toEqual([item.ID]);
    const read = await callJson(second, 'GET', `/rest/v1.1/sites/1/media/${item.ID}`);
    expect(read.body).toEqual(item);
    const path = new URL(item.URL).pathname;
    const onSecond = await second.call(`${second.server.url}${path}?w=32`);
    expect(onSecond.status).toBe(200);
    expect(await sharp(Buffer.from(await onSecond.arrayBuffer())).metadata()).toMatchObject({ width: 32, height: 16 });
    const onFirst = await first.call(`${first.server.url}${path}`);
    expect(onFirst.status).toBe(200);
    const deleted = await callJson(first, 'POST', `/rest/v1.1/sites/1/media/${item.ID}/delete`, token);
    expect(deleted.body.status).toBe('deleted');
    expect((await second.call(`${second.server.url}${path}?w=32`)).status).toBe(404);
    expect((await second.call(`${second.server.url}${path}`)).status).toBe(404);
  });
});
