// @store-independent: the SDK's requests and answers are the same on either store; the media suites run the store on both
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmEnv, SDK_SCOPE } from '../../../scripts/build-sdk.js';
import { freePort } from '../../../scripts/tools.js';
import { packedSdk } from '../../support/sdk.js';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * The publishing SDK package uploads files: `uploadMedia` and `editMediaV12`
 * send `multipart/form-data` as the platform's clients do (`media[]`,
 * `attrs[i][key]`; v1.2's `media`), where hey-api alone sends the JSON body
 * the contract declares first, which carries no file. The packed package,
 * installed offline into a project of its own, runs in this test's process
 * against a live server over a socket, its every answer checked against
 * the contract (the harness's fetch, given to the SDK's client).
 */
const exec = promisify(execFile);

/** The package's exports, as a JavaScript consumer imports them (the types are the docs examples' to check). */
type Publishing = Record<string, any>;

let harness: PublishingTestServer;
let consumer: string;
let wp: Publishing;
let client: unknown;

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'sdk-media-'));
  // The server's own address as its public one, so that the items' URLs are its files'.
  const port = await freePort();
  const [tarballs, started] = await Promise.all([
    packedSdk(),
    startPublishing({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, { wire: true }),
  ]);
  harness = started;
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'sdk-media', private: true, type: 'module' }));
  await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: consumer, env: npmEnv });
  const entry = join(consumer, 'node_modules', SDK_SCOPE, 'publishing', 'dist', 'index.js');
  wp = (await import(pathToFileURL(entry).href)) as Publishing;
  client = wp.createClient({
    baseUrl: `${harness.server.url}/rest/v1.1`,
    auth: await harness.tokenFor('author'),
    fetch: harness.call,
  });
}, 180_000);

afterAll(async () => {
  await harness?.close();
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** A media file as the harness's fetch answers it (contract-checked): its status, type and pixel size. */
async function served(url: string) {
  const response = await harness.call(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  const { format, width, height } = await sharp(bytes).metadata();
  return { status: response.status, type: response.headers.get('content-type'), format, width, height };
}

describe('the publishing SDK uploads media', () => {
  it('sends a File and a named Blob as media[] with attrs[i], and the items read back as given', async () => {
    const answer = await wp.uploadMedia({
      client,
      path: { site: 'demo.example.com' },
      body: {
        media: [
          new File([new Uint8Array(await png(30, 20, '#3366aa'))], 'harbour.png', { type: 'image/png' }),
          { file: new Blob([new Uint8Array(await png(16, 24, '#aa6633'))]), filename: 'boats.png' },
        ],
        attrs: [
          { title: 'Harbour', caption: 'At dawn', description: 'The old harbour', alt: 'Boats moored', parent_id: 108 },
          { alt: 'Two boats' },
        ],
      },
    });
    expect([answer.ok, answer.status, answer.data.errors]).toEqual([true, 200, undefined]);
    const [harbour, boats] = answer.data.media;
    expect(harbour).toMatchObject({
      file: 'harbour.png',
      mime_type: 'image/png',
      title: 'Harbour',
      caption: 'At dawn',
      description: 'The old harbour',
      alt: 'Boats moored',
      post_ID: 108,
      width: 30,
      height: 20,
    });
    expect(boats).toMatchObject({ file: 'boats.png', title: 'boats', alt: 'Two boats', post_ID: 0, width: 16 });

    const read = await wp.getMedia({ client, path: { site: 'demo.example.com', media_ID: harbour.ID } });
    expect([read.status, read.data]).toEqual([200, harbour]);
    expect(await served(harbour.URL)).toEqual({
      status: 200,
      type: 'image/png',
      format: 'png',
      width: 30,
      height: 20,
    });
  });

  it('replaces a file with editMediaV12 (media, and the attributes beside it), keeping the old one in the history', async () => {
    const uploaded = await wp.uploadMedia({
      client,
      path: { site: 'demo.example.com' },
      body: { media: [new File([new Uint8Array(await png(20, 20, '#111111'))], 'first.png', { type: 'image/png' })] },
    });
    const [first] = uploaded.data.media;
    const edited = await wp.editMediaV12({
      client,
      path: { site: 'demo.example.com', media_ID: first.ID },
      body: {
        media: { file: new Blob([new Uint8Array(await png(40, 10, '#eeeeee'))]), filename: 'cropped.png' },
        title: 'Cropped',
        parent_id: '108',
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.data).toMatchObject({ ID: first.ID, file: 'cropped.png', title: 'Cropped', post_ID: 108, width: 40 });
    expect(edited.data.revision_history.items.map((revision: { URL: string }) => revision.URL)).toEqual([first.URL]);
    expect(await served(edited.data.URL)).toMatchObject({ status: 200, width: 40, height: 10 });
    const read = await wp.getMediaV12({ client, path: { site: 'demo.example.com', media_ID: first.ID } });
    expect(read.data).toMatchObject({ ID: first.ID, URL: edited.data.URL, title: 'Cropped' });
  });

  it("keeps the call's own headers (a Headers object too), and answers the envelope and the refusals as typed", async () => {
    const text = new File([new TextEncoder().encode('not a picture')], 'notes.png', { type: 'image/png' });
    const enveloped = await wp.uploadMedia({
      client,
      path: { site: 'demo.example.com' },
      query: { http_envelope: true },
      headers: new Headers({ 'Content-Type': 'application/json', 'X-Request-Id': 'sdk-media-upload' }),
      body: { media: [text] },
    });
    // The request went as multipart (the file was read and refused) with the call's own request id, echoed.
    expect([enveloped.status, enveloped.requestId]).toEqual([200, 'sdk-media-upload']);
    expect(enveloped.data).toMatchObject({
      code: 400,
      body: { errors: [{ file: 'notes.png', error: 'rest_upload_invalid_type' }] },
    });
    const refused = await wp.uploadMedia({ client, path: { site: 'demo.example.com' }, body: { media: [text] } });
    expect([refused.ok, refused.status, refused.error.errors[0].error]).toEqual([
      false,
      400,
      'rest_upload_invalid_type',
    ]);
  });
});
