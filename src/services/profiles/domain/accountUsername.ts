/**
 * The username of a verified account, as `GET /profiles/search/by-verified-account`
 * finds it: the one the import gave, else the last segment of the account
 * URL's path without a leading `@` (`https://github.com/alex`,
 * `https://mastodon.social/@alex`), else the first label of its host
 * (`https://alex.tumblr.com/`); lower-case, since usernames are found in any
 * letter case. Empty when the URL names none.
 */
export function accountUsername(account: { url: string; username?: string }): string {
  if (account.username) return account.username.toLowerCase();
  let url: URL;
  try {
    url = new URL(account.url);
  } catch {
    return '';
  }
  const segment = url.pathname.split('/').filter(Boolean).at(-1);
  if (segment) return decodeSegment(segment).replace(/^@/, '').toLowerCase();
  const labels = url.hostname.split('.');
  return labels.length > 2 ? labels[0]!.toLowerCase() : '';
}

const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
