import type { AncestorRecord, PostRecord, SiteRecord, UserRecord } from './records.js';

/**
 * Statuses whose posts are reached by their plain link (`?p=ID`) rather
 * than their pretty permalink (the platform's `get_permalink`): not yet
 * published or scheduled. A page is plain only while not published nor
 * scheduled (`_get_page_link` leaves `future` out); a trashed post keeps its
 * pretty permalink, with its `__trashed` slug.
 */
const PLAIN_LINK_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'auto-draft', 'future']);
const PLAIN_PAGE_LINK_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'auto-draft']);

/** The placeholder a sample permalink leaves for the slug of a post, and of a page or another post type. */
const POST_NAME_PLACEHOLDER = '%postname%';
const PAGE_NAME_PLACEHOLDER = '%pagename%';

/** Post types the platform gives short links (`post_type_supports(..., 'shortlinks')` is off for the others). */
const SHORT_LINK_TYPES: Readonly<Record<string, string>> = { post: 'p', page: 'P', attachment: 'a' };

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The site's home URL: `https://domain` or `https://domain/path`. */
export const siteHomeUrl = (site: SiteRecord): string => `https://${site.domain}${site.path ? `/${site.path}` : ''}`;

/** The API URL of a site, built on its numeric ID (`{publicUrl}/rest/v1.1/sites/{ID}`). */
export const apiSiteUrl = (publicUrl: string, siteId: number): string => `${publicUrl}/rest/v1.1/sites/${siteId}`;

/** The API URL of a post (`.../sites/{site_ID}/posts/{ID}`). */
export const apiPostUrl = (publicUrl: string, siteId: number, postId: number): string =>
  `${apiSiteUrl(publicUrl, siteId)}/posts/${postId}`;

/** A post's `meta.links`: `self`, `help`, `site`, `replies` and `likes`, absolute, on the numeric site ID. */
export function postApiLinks(publicUrl: string, siteId: number, postId: number) {
  const self = apiPostUrl(publicUrl, siteId, postId);
  return {
    self,
    help: `${self}/help`,
    site: apiSiteUrl(publicUrl, siteId),
    replies: `${self}/replies/`,
    likes: `${self}/likes/`,
  };
}

/** A term's `meta.links`: categories and tags have their own collections, other taxonomies share one. */
export function termApiLinks(publicUrl: string, siteId: number, taxonomy: string, slug: string) {
  const site = apiSiteUrl(publicUrl, siteId);
  const collection =
    taxonomy === 'category'
      ? 'categories'
      : taxonomy === 'post_tag'
        ? 'tags'
        : `taxonomies/${encodeURIComponent(taxonomy)}/terms`;
  const self = `${site}/${collection}/slug:${encodeURIComponent(slug)}`;
  return { self, help: `${self}/help`, site };
}

/**
 * The pretty permalink a post has (or would have) with a slug: pages by
 * their ancestors' slugs, posts by date, other types under their type name.
 */
export function prettyPermalink(
  site: SiteRecord,
  post: PostRecord,
  ancestors: readonly AncestorRecord[],
  slug: string,
): string {
  const home = siteHomeUrl(site);
  if (post.type === 'page') {
    const path = [...ancestors].reverse().map((ancestor) => ancestor.slug);
    return `${home}/${[...path, slug].join('/')}/`;
  }
  if (post.type === 'post') {
    const date = post.date.slice(0, 10).replaceAll('-', '/');
    return `${home}/${date}/${slug}/`;
  }
  return `${home}/${encodeURIComponent(post.type)}/${slug}/`;
}

/**
 * The platform's sample permalink (`get_sample_permalink`): the pretty
 * permalink with the slug left as a placeholder for an editor, `%postname%`
 * for a post and `%pagename%` for a page (after its parents' path, unless
 * hidden from the caller) or any other post type.
 */
export function samplePermalink(site: SiteRecord, post: PostRecord, ancestors: LinkAncestors): string {
  // The placeholder goes in as the slug; `%` never occurs in a slug, so nothing else can match.
  const shown = ancestors.readable ?? [];
  return prettyPermalink(site, post, shown, post.type === 'post' ? POST_NAME_PLACEHOLDER : PAGE_NAME_PLACEHOLDER);
}

/** The short link that always reaches the post: `?p=ID` (`?page_id=ID` for pages). */
export function plainPermalink(site: SiteRecord, post: PostRecord): string {
  const home = siteHomeUrl(site);
  if (post.type === 'page') return `${home}/?page_id=${post.id}`;
  if (post.type === 'post') return `${home}/?p=${post.id}`;
  return `${home}/?post_type=${encodeURIComponent(post.type)}&p=${post.id}`;
}

/**
 * A post's ancestors as its links may show them to the caller, only as
 * `ancestorsFor` (domain/access.ts) gives them: `readable` holds them all
 * when the caller may read each, else null (a page's pretty permalink would
 * show their slugs). A plain list of ancestors does not compile here, so no
 * link is built without that check.
 */
export interface LinkAncestors {
  readonly readable: readonly AncestorRecord[] | null;
}

/**
 * The post's `URL`: its pretty permalink unless it is not published yet (see
 * PLAIN_LINK_STATUSES), else the plain link; the plain link too for a page
 * whose ancestors are hidden from the caller (the pretty one holds their
 * slugs: a private parent's slug is its title).
 */
export function permalink(site: SiteRecord, post: PostRecord, ancestors: LinkAncestors): string {
  const plain = (post.type === 'page' ? PLAIN_PAGE_LINK_STATUSES : PLAIN_LINK_STATUSES).has(post.status);
  if (plain || !post.slug) return plainPermalink(site, post);
  if (ancestors.readable === null)
    return post.type === 'page' ? plainPermalink(site, post) : prettyPermalink(site, post, [], post.slug);
  return prettyPermalink(site, post, ancestors.readable, post.slug);
}

/** A number in the platform's base 62 (`wpme_dec2sixtwo`: `0-9`, `a-z`, `A-Z`). */
export function base62(value: number): string {
  let out = '';
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out || '0';
}

/**
 * The post's `short_URL`, in the platform's wp.me shape (`wpme_get_shortlink`):
 * `{base}/s{site}-{slug}` for a published post whose slug is at most 8
 * characters without `-` or `%`; else `{base}/{p|P|a}{site}-{post}` for a
 * post, page or attachment, with the IDs in base 62; `""` for other post
 * types, which have no short links.
 */
export function shortUrl(
  shortlinkBase: string,
  site: SiteRecord,
  post: Pick<PostRecord, 'id' | 'type' | 'status' | 'slug'>,
): string {
  const bySlug =
    post.type === 'post' &&
    post.status === 'publish' &&
    post.slug.length <= 8 &&
    !/[-%]/.test(post.slug) &&
    post.slug !== '';
  if (bySlug) return `${shortlinkBase}/s${base62(site.id)}-${post.slug}`;
  const kind = SHORT_LINK_TYPES[post.type];
  return kind ? `${shortlinkBase}/${kind}${base62(site.id)}-${base62(post.id)}` : '';
}

/** A media item's `meta.links`: `self`, `help`, `site`, and `parent` (the post it is attached to) when attached. */
export function mediaApiLinks(publicUrl: string, siteId: number, mediaId: number, postId: number | null) {
  const self = `${apiSiteUrl(publicUrl, siteId)}/media/${mediaId}`;
  return {
    self,
    help: `${self}/help`,
    site: apiSiteUrl(publicUrl, siteId),
    ...(postId ? { parent: apiPostUrl(publicUrl, siteId, postId) } : {}),
  };
}

/** A user's author page on the site. */
export const profileUrl = (site: SiteRecord, user: UserRecord): string =>
  `${siteHomeUrl(site)}/author/${encodeURIComponent(user.niceName)}/`;
