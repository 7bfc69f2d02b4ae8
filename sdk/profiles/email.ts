/**
 * Helpers for clients that start from an email address, as the official
 * mobile SDKs have them: the profile identifier of an email and the avatar
 * URL of an email. The profiles package exports them through its own module
 * (`sdk/profiles.ts`, which `scripts/build-sdk.ts` copies into the package
 * with this folder). This file imports nothing (the repository's tests
 * import it as it is) and is synchronous, so an avatar URL can be written
 * straight into an `<img>` while rendering; SHA-256 is computed here
 * because Web Crypto's is asynchronous only.
 */

/** The avatar images of the contract's default server (`GET /avatar/{hash}` beside `/v3`): what `npm start` serves. */
export const DEFAULT_AVATAR_BASE_URL = 'http://localhost:8080/avatar';

/**
 * The profile identifier of an email address: the SHA-256 hex of the
 * trimmed, lower-cased address (`sha256(email.trim().toLowerCase())`), which
 * `getProfileById` and the avatar images accept.
 */
export const profileIdentifier = (email: string): string =>
  sha256Hex(new TextEncoder().encode(email.trim().toLowerCase()));

/** What the avatar image of an email should be; every option may be left out (the server's defaults apply). */
export interface AvatarUrlOptions {
  /** Width and height in pixels, an integer from 1 to 2048 (the server's default: 80). */
  s?: number;
  /**
   * The image when the email has none: `mp` (the server's default), `identicon`, `blank`, `404`, one of the
   * real service's other styles, or an absolute `http`/`https` URL of the caller's own image.
   */
  d?: string;
  /** The highest audience rating to show: `g`, `pg`, `r` or `x`. */
  r?: 'g' | 'pg' | 'r' | 'x';
  /** Where the deployment serves its avatar images (`<origin>/avatar`, or a CDN in front of it); default: beside `client`'s. */
  baseUrl?: string;
  /**
   * A client of this package (`createClient(…)`; the package's `avatarUrl` defaults to its default `client`): the images
   * are served beside its base URL, `<origin>/avatar` for a base URL of `<origin>/v3`, so a deployment's address is set
   * in one place. Without a client (or one without a base URL), `DEFAULT_AVATAR_BASE_URL`.
   */
  client?: { getConfig(): { baseUrl?: string } };
}

/** Where the avatar images are beside a Profiles API base URL: `<origin>/v3` (any path ending in `/v3`) becomes `<origin>/avatar`. */
export const avatarBaseUrlOf = (profilesBaseUrl: string): string =>
  `${profilesBaseUrl.replace(/\/+$/, '').replace(/\/v3$/, '')}/avatar`;

/**
 * The URL of an email's avatar image: `<baseUrl>/<profileIdentifier(email)>`
 * (`baseUrl`, else beside `client`'s base URL, else the default server's)
 * with `s`, `d` and `r` as query parameters when given (in that order,
 * URL-encoded). A size that is not an integer from 1 to 2048 throws a
 * `RangeError` rather than making a URL the server would answer `400`.
 */
export const avatarUrl = (email: string, options: AvatarUrlOptions = {}): string => {
  const { s, d, r, client } = options;
  const clientBase = client?.getConfig().baseUrl;
  const baseUrl = options.baseUrl ?? (clientBase ? avatarBaseUrlOf(clientBase) : DEFAULT_AVATAR_BASE_URL);
  if (s !== undefined && !(Number.isInteger(s) && s >= 1 && s <= 2048)) {
    throw new RangeError(`avatar size s must be an integer from 1 to 2048, not ${s}`);
  }
  const query = new URLSearchParams();
  if (s !== undefined) query.set('s', String(s));
  if (d !== undefined) query.set('d', d);
  if (r !== undefined) query.set('r', r);
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}/${profileIdentifier(email)}${search ? `?${search}` : ''}`;
};

/** SHA-256's round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4). */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 (FIPS 180-4) of bytes, as lower-case hex. */
function sha256Hex(message: Uint8Array): string {
  // The message, a 1 bit, zeros, and its length in bits as 64 bits: a whole number of 64-byte blocks.
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(message.length / 0x20000000));
  view.setUint32(padded.length - 4, (message.length * 8) >>> 0);

  const hash = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15]!, 7) ^ rotr(w[t - 15]!, 18) ^ (w[t - 15]! >>> 3);
      const s1 = rotr(w[t - 2]!, 17) ^ rotr(w[t - 2]!, 19) ^ (w[t - 2]! >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    // Uint32Array elements wrap at 2^32 by themselves.
    [a, b, c, d, e, f, g, h].forEach((word, index) => (hash[index] = hash[index]! + word));
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
}
