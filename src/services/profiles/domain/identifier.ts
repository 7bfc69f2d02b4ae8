/** How a `profileIdentifier` finds a profile. */
export type ProfileLookup =
  | { by: 'sha256'; value: string }
  | { by: 'md5'; value: string }
  | { by: 'slug'; value: string }
  | { by: 'nothing' };

const SHA256_HEX = /^[0-9a-f]{64}$/;
const MD5_HEX = /^[0-9a-f]{32}$/;
/** Lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 64 characters. */
export const SLUG = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** True for a slug that could be mistaken for an email hash (slugs may never look like one). */
export const looksLikeEmailHash = (slug: string): boolean => SHA256_HEX.test(slug) || MD5_HEX.test(slug);

/**
 * Reads a `profileIdentifier`: "either the SHA256 hash of an email address
 * or a profile URL slug", plus the legacy 32-character MD5 hash. Hashes
 * match in any letter case and so do slugs (they are stored lower-case);
 * anything that is neither can match no profile.
 */
export function parseIdentifier(identifier: string): ProfileLookup {
  const value = identifier.toLowerCase();
  if (SHA256_HEX.test(value)) return { by: 'sha256', value };
  if (MD5_HEX.test(value)) return { by: 'md5', value };
  if (SLUG.test(value)) return { by: 'slug', value };
  return { by: 'nothing' };
}
