import type { AncestorRecord, PostRecord, SiteRecord, UserRecord } from '../store/publishingStore.js';

/** Statuses whose posts have their pretty permalink; others are reached by `?p=ID` until published. */
const PRETTY_LINK_STATUSES: ReadonlySet<string> = new Set(['publish', 'private']);

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
    taxonomy === 'category' ? 'categories' : taxonomy === 'post_tag' ? 'tags' : `taxonomies/${encodeURIComponent(taxonomy)}/terms`;
  const self = `${site}/${collection}/slug:${encodeURIComponent(slug)}`;
  return { self, help: `${self}/help`, site };
}

/**
 * The pretty permalink a post has (or would have) with a slug: pages by
 * their ancestors' slugs, posts by date, other types under their type name.
 */
export function prettyPermalink(site: SiteRecord, post: PostRecord, ancestors: AncestorRecord[], slug: string): string {
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

/** The short link that always reaches the post: `?p=ID` (`?page_id=ID` for pages). */
export function plainPermalink(site: SiteRecord, post: PostRecord): string {
  const home = siteHomeUrl(site);
  if (post.type === 'page') return `${home}/?page_id=${post.id}`;
  if (post.type === 'post') return `${home}/?p=${post.id}`;
  return `${home}/?post_type=${encodeURIComponent(post.type)}&p=${post.id}`;
}

/** The post's `URL`: its pretty permalink once published (or private), else the plain link. */
export function permalink(site: SiteRecord, post: PostRecord, ancestors: AncestorRecord[]): string {
  return PRETTY_LINK_STATUSES.has(post.status) && post.slug ? prettyPermalink(site, post, ancestors, post.slug) : plainPermalink(site, post);
}

/** The post's `short_URL`. */
export const shortUrl = (site: SiteRecord, postId: number): string => `${siteHomeUrl(site)}/?p=${postId}`;

/** A user's author page on the site. */
export const profileUrl = (site: SiteRecord, user: UserRecord): string => `${siteHomeUrl(site)}/author/${encodeURIComponent(user.niceName)}/`;
