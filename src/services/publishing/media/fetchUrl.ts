import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { tooBig, UploadRefused } from './ingest.js';

/** How long fetching one URL may take, connection and body together. */
const FETCH_TIMEOUT_MS = 10_000;

/** Addresses inside a deployment's network, never fetched: private, loopback, link-local, unique-local, and the like. */
const INSIDE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INSIDE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
] as const)
  INSIDE.addSubnet(net, prefix, 'ipv6');

/** Whether an address is inside the deployment's network (or no plain address at all). */
export function isInsideAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return INSIDE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const sideloadError = (message: string) => new UploadRefused('rest_upload_sideload_error', message);

type Lookup = typeof dnsLookup;

/**
 * The name resolution of a fetch: every address a host name resolves to is
 * checked when the connection is made (not before, so a name that
 * resolves elsewhere the second time cannot slip past the check).
 */
const checkedLookup: Lookup = ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    const inside = addresses.find((entry) => isInsideAddress(entry.address));
    if (inside || addresses.length === 0)
      return callback(sideloadError('The URL names an address that is not allowed.'));
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}) as Lookup;

/**
 * Fetches `media_urls` entries for the media library: only `http(s)` URLs
 * of the hosts listed (`MEDIA_URL_HOSTS`, exact host names), never to an
 * address inside the deployment's network (resolved and checked at
 * connection), no redirect followed, at most `maxBytes` and
 * FETCH_TIMEOUT_MS. Every refusal is a `rest_upload_sideload_error`.
 */
export function urlFetcher(allowedHosts: readonly string[]) {
  const allowed = new Set(allowedHosts);
  return (given: string, maxBytes: number): Promise<{ name: string; bytes: Buffer }> => {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      return Promise.reject(sideloadError('The URL is not valid.'));
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
      return Promise.reject(sideloadError('Only http and https URLs are fetched.'));
    }
    const host = url.hostname.toLowerCase();
    if (!allowed.has(host)) return Promise.reject(sideloadError('Fetching media from this host is not allowed.'));
    if (isIP(host.replace(/^\[|\]$/g, '')) && isInsideAddress(host.replace(/^\[|\]$/g, ''))) {
      return Promise.reject(sideloadError('The URL names an address that is not allowed.'));
    }
    const name = decodeURIComponent(url.pathname.split('/').pop() ?? '') || 'file';
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { lookup: checkedLookup, timeout: FETCH_TIMEOUT_MS, headers: { accept: 'image/*,application/pdf' } },
        (response: IncomingMessage) => {
          if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) {
            response.resume();
            request.destroy();
            return reject(sideloadError(`The URL answered ${response.statusCode}.`));
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              request.destroy();
              return reject(tooBig(maxBytes));
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve({ name, bytes: Buffer.concat(chunks) }));
          response.on('error', () => reject(sideloadError('The URL could not be read.')));
        },
      );
      const timer = setTimeout(() => request.destroy(sideloadError('The URL took too long.')), FETCH_TIMEOUT_MS);
      timer.unref();
      request.on('close', () => clearTimeout(timer));
      request.on('timeout', () => request.destroy(sideloadError('The URL took too long.')));
      request.on('error', (error) =>
        reject(error instanceof UploadRefused ? error : sideloadError('The URL could not be fetched.')),
      );
      request.end();
    });
  };
}
