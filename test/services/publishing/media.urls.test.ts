import { createServer, Agent, type Server } from 'node:http';
import { connect, type AddressInfo, type NetConnectOpts } from 'node:net';
import type { LookupAddress } from 'node:dns';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStore } from '../../../src/platform/files/fileStore.js';
import { uploadMedia } from '../../../src/services/publishing/flows/media.js';
import { isInsideAddress, urlFetcher, type FetchTransport } from '../../../src/services/publishing/media/fetchUrl.js';
import { mediaLibrary } from '../../../src/services/publishing/media/library.js';
import { startPublishing, type PublishingTestServer } from './support.js';

/**
 * A `media_urls` entry fetched and added (issue 53): the allowed host
 * `pictures.test` resolves (by the fetcher's resolver, given here) to an
 * address outside the network, which the fetcher checks as always; the
 * test's agent then carries the connection to a local server of its own.
 * No setting reaches these: addresses inside the network stay refused.
 */

let harness: PublishingTestServer;
let pictures: Server;
let photo: Buffer;
beforeAll(async () => {
  harness = await startPublishing();
  photo = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#2266aa' } })
    .jpeg()
    .toBuffer();
  pictures = createServer((request, response) => {
    if (request.url === '/boats/harbour-view.jpg') {
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => pictures?.close(resolve));
});

/** A resolver that answers `address` for any name. */
const resolvingTo = (address: string): NonNullable<FetchTransport['lookup']> =>
  ((_host: string, _options: object, callback: (error: null, addresses: LookupAddress[]) => void) =>
    callback(null, [{ address, family: 4 }])) as NonNullable<FetchTransport['lookup']>;

/** An agent that connects to the local picture server once the fetcher's checked lookup has passed the address. */
class ToPictures extends Agent {
  override createConnection(options: NetConnectOpts & { lookup?: FetchTransport['lookup'] }) {
    const checked = options.lookup!;
    const port = (pictures.address() as AddressInfo).port;
    return connect({
      host: 'pictures.test',
      port,
      lookup: ((host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        checked(host, lookupOptions, (error: NodeJS.ErrnoException | null) => {
          if (error) return callback(error);
          if (lookupOptions.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
          return callback(null, '127.0.0.1', 4);
        })) as never,
    });
  }
}

const depsWith = (transport: FetchTransport) => {
  const settings = harness.server.config.publishing.media;
  const storage = settings.storage;
  if (storage.kind !== 'file') throw new Error('the test server keeps media on the local disk');
  const media = mediaLibrary(settings, localFileStore(storage.path));
  return {
    store: harness.store,
    publicUrl: harness.server.config.publicUrl,
    media: { ...media, fetchUrl: urlFetcher(['pictures.test'], transport) },
  };
};

const fetchFrom = (transport: FetchTransport, url = 'http://pictures.test/boats/harbour-view.jpg') =>
  uploadMedia(depsWith(transport), {
    site: '1',
    viewerId: 2,
    sources: [{ kind: 'url', url }],
    attributes: [{ caption: 'Fetched' }],
  });

describe('media_urls', () => {
  it('tells addresses inside the network from the others (an IPv4 address is checked as IPv4 only)', () => {
    for (const outside of ['8.8.8.8', '203.0.113.10', '2001:4860:4860::8888'])
      expect(isInsideAddress(outside)).toBe(false);
    for (const inside of [
      '10.0.0.5',
      '127.0.0.1',
      '169.254.169.254',
      '192.168.1.1',
      '::1',
      'fd00::1',
      '::ffff:8.8.8.8',
    ])
      expect(isInsideAddress(inside)).toBe(true);
  });

  it('fetches a file of an allowed host that resolves outside the network, and adds it; its URL answers', async () => {
    const { media, errors } = await fetchFrom({ lookup: resolvingTo('203.0.113.10'), agent: new ToPictures() });
    expect(errors).toEqual([]);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({
      file: 'harbour-view.jpg',
      title: 'harbour-view',
      caption: 'Fetched',
      mime_type: 'image/jpeg',
      width: 30,
      height: 20,
    });
    const served = await harness.call(media[0]!.URL);
    expect(served.status).toBe(200);
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ width: 30, height: 20 });
  });

  it('still refuses a name that resolves inside the network, whatever carries the connection', async () => {
    const { media, errors } = await fetchFrom({ lookup: resolvingTo('10.0.0.5'), agent: new ToPictures() });
    expect(media).toEqual([]);
    expect(errors).toEqual([
      {
        file: 'http://pictures.test/boats/harbour-view.jpg',
        error: 'rest_upload_sideload_error',
        message: expect.any(String),
      },
    ]);
    const missing = await fetchFrom(
      { lookup: resolvingTo('203.0.113.10'), agent: new ToPictures() },
      'http://pictures.test/boats/none.jpg',
    );
    expect(missing.errors[0]).toMatchObject({ error: 'rest_upload_sideload_error', message: 'The URL answered 404.' });
  });
});
