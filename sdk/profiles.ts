/**
 * The profiles package's own module: the email helpers of
 * `profiles/email.ts`, with `avatarUrl` following the package's default
 * `client` when the call names no other, so a program that sets only that
 * client's base URL (`client.setConfig({ baseUrl })`) gets the avatars of
 * the same deployment, not of the contract's default server.
 * `scripts/build-sdk.ts` copies this file and the folder `profiles/` into
 * the package (this one imports the package's layer, so only the package
 * compiles it; the repository's tests import `profiles/email.ts`).
 */
import { client } from './layer.js';
import * as email from './profiles/email.js';

/** What the avatar image of an email should be; every option may be left out (the server's defaults apply). */
export type AvatarUrlOptions = email.AvatarUrlOptions;

/** The avatar images of the contract's default server (`GET /avatar/{hash}` beside `/v3`): what `npm start` serves. */
export const DEFAULT_AVATAR_BASE_URL = email.DEFAULT_AVATAR_BASE_URL;

/** The profile identifier of an email address: the SHA-256 hex of the trimmed, lower-cased address. */
export const profileIdentifier = email.profileIdentifier;

/** Where the avatar images are beside a Profiles API base URL: `<origin>/v3` becomes `<origin>/avatar`. */
export const avatarBaseUrlOf = email.avatarBaseUrlOf;

/**
 * The URL of an email's avatar image: `<baseUrl>/<profileIdentifier(email)>`
 * with `s`, `d` and `r` as query parameters when given. `baseUrl` defaults
 * to the images beside `client`'s base URL, and `client` to the package's
 * default `client`, as it is configured when the URL is made.
 */
export const avatarUrl = (address: string, options: AvatarUrlOptions = {}): string =>
  email.avatarUrl(address, { ...options, client: options.client ?? client });
