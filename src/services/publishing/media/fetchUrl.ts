import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type Agent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { tooBig, UploadRefused } from './ingest.js';

/** How long fetching one URL may take, connection and body together. */
const FETCH_TIMEOUT_MS = 10_000;

/**
 * Addresses inside a deployment's network, never fetched: private, loopback,
 * link-local, unique-local, and the like. Two lists: Node's `BlockList`
 * checks an IPv4 address against IPv6 subnets too, as its mapped form, so
 * one list holding `::ffff:0:0/96` would hold every IPv4 address.
 */
const INSIDE = new BlockList();
const INSIDE_V6 = new BlockList();
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
  INSIDE_V6.addSubnet(net, prefix, 'ipv6');

/** Whether an address is inside the deployment's network (or no plain address at all). */
export function isInsideAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return INSIDE.check(address, 'ipv4');
  // An IPv4 address written as IPv6 (`::ffff:8.8.8.8`) is refused whole: the mapped range is in the list.
  return INSIDE_V6.check(address, 'ipv6');
}

const sideloadError = (message: string) => new UploadRefused('rest_upload_sideload_error', message);

type Lookup = typeof dnsLookup;

/**
 * The name resolution of a fetch: every address `resolve` gives for a host
 * name is checked when the connection is made (not before, so a name that
 * resolves elsewhere the second time cannot slip past the check).
 */
const checkedLookup = (resolve: Lookup): Lookup =>
  ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
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
 * How a fetch reaches a host: the system's name resolution and Node's
 * agent, unless given. Only code passes these (no setting does): a test
 * resolves an allowed name to an address outside the network and routes
 * the connection to a server of its own, the address check still run.
 */
export interface FetchTransport {
  /** Resolves a host name (`dns.lookup` by default); every address it answers is checked. */
  lookup?: Lookup;
  /** Opens the connections (Node's global agent by default), with the checked lookup in its options. */
  agent?: Agent;
}

/**
 * Fetches `media_urls` entries for the media library: only `http(s)` URLs
 * of the hosts listed (`MEDIA_URL_HOSTS`, exact host names), never to an
 * address inside the deployment's network (resolved and checked at
 * connection), no redirect followed, at most `maxBytes` and
 * FETCH_TIMEOUT_MS. Every refusal is a `rest_upload_sideload_error`.
 */
export function urlFetcher(allowedHosts: readonly string[], transport: FetchTransport = {}) {
  const allowed = new Set(allowedHosts);
  const lookup = checkedLookup(transport.lookup ?? dnsLookup);
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
        {
          lookup,
          ...(transport.agent ? { agent: transport.agent } : {}),
          timeout: FETCH_TIMEOUT_MS,
          headers: { accept: 'image/*,application/pdf' },
        },
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
