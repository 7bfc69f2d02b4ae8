import { hash } from 'node:crypto';
import type { Geo, Metadata, Post, PostMeta, Term } from '../../../../generated/publishing/types.gen.js';
import { renderContent, renderExcerpt, renderTitle, type RenderAttachment } from '../render/index.js';
import type {
  AttachmentRecord,
  MetadataRecord,
  PostRecord,
  PostRelations,
  SiteRecord,
  TermRecord,
} from '../domain/records.js';
import type { PostCapabilities } from '../domain/capabilities.js';
import type { PostContext } from '../domain/context.js';
import { apiDate } from '../domain/dates.js';
import { filterPostHtml, filterTitleHtml } from '../domain/kses.js';
import {
  apiPostUrl,
  type LinkAncestors,
  permalink,
  postApiLinks,
  samplePermalink,
  shortUrl,
  termApiLinks,
} from '../domain/links.js';
import { attachmentObject } from './mediaObject.js';
import { userObject } from './userObject.js';

/** How many attachments the post object lists ("the 20 most recent only"). */
export const LISTED_ATTACHMENTS = 20;

/** Post formats the API names; any other `post_format` term means `standard`. */
const POST_FORMATS: ReadonlySet<string> = new Set([
  'aside',
  'chat',
  'gallery',
  'link',
  'image',
  'quote',
  'status',
  'video',
  'audio',
]);

/**
 * The public taxonomies of each post type, in the order the platform
 * registers them (`get_object_taxonomies`): the post object lists each under
 * `terms`, `{}` when the post has no term in it. Pages have none; Jetpack's
 * portfolio projects have their project types and tags.
 */
export const TAXONOMIES_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  post: ['category', 'post_tag', 'post_format'],
  page: [],
  'jetpack-portfolio': ['jetpack-portfolio-type', 'jetpack-portfolio-tag'],
};

/** Taxonomies whose terms have a `parent`. */
export const HIERARCHICAL_TAXONOMIES: ReadonlySet<string> = new Set(['category', 'jetpack-portfolio-type']);

/** Everything the post object is built from. */
export interface PostView {
  site: SiteRecord;
  post: PostRecord;
  relations: PostRelations;
  /** The caller's rights on the post. */
  capabilities: PostCapabilities;
  /** Whether the caller may read the post's parent (else `parent` is `false`). */
  parentShown: boolean;
  /** The ancestors the post's links may show the caller (`ancestorsFor`): hidden when one is not readable to them. */
  linkAncestors: LinkAncestors;
  context: PostContext;
  /** Base of absolute API links. */
  publicUrl: string;
  /** Base of the wp.me-style short links (`short_URL`). */
  shortlinkBase: string;
  /** The slug suggested in `other_URLs` for a post that is not published: its own or its title's, made unique. */
  suggestedSlug: string;
  /** `other_URLs` holds the suggestions even for a published post (a new post's write answer). */
  suggestions?: boolean;
  /** What the `meta` query parameter loaded, by link name. */
  metaData?: PostMeta['data'];
  /** Whether the post has an autosave newer than itself to link (`meta.links.autosave`, edit context). */
  autosaveLinked?: boolean;
}

const isProtectedMetaKey = (key: string) => key.startsWith('_');

/** The platform's `sanitize_title` for a suggested slug: lower case, accents and tags dropped, words joined by `-`. */
export function slugFromTitle(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&[^;\s]+;/g, '')
    .replace(/[^a-z0-9 _-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}

/** A term as the API shows it (in a post object, and in the term lists and reads), its links on the site's API. */
export function termObject(term: TermRecord, view: Pick<PostView, 'publicUrl' | 'site'>): Term {
  return {
    ID: term.id,
    name: term.name,
    slug: term.slug,
    description: term.description,
    post_count: term.postCount,
    ...(HIERARCHICAL_TAXONOMIES.has(term.taxonomy) ? { parent: term.parentId } : {}),
    meta: { links: termApiLinks(view.publicUrl, view.site.id, term.taxonomy, term.slug) },
  };
}

/** Terms keyed by name, sorted by name as the platform lists them. */
function termsByName(terms: TermRecord[], view: PostView): Record<string, Term> {
  const sorted = [...terms].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
  return Object.fromEntries(sorted.map((term) => [term.name, termObject(term, view)]));
}

const renderAttachment = (attachment: AttachmentRecord): RenderAttachment => ({
  ID: attachment.id,
  URL: attachment.url,
  title: attachment.title,
  caption: attachment.caption,
  alt: attachment.alt,
  width: attachment.width,
  height: attachment.height,
  mime_type: attachment.mimeType,
});

/** Metadata the caller may read: protected (`_`) keys only for those who can edit the post; `false` when none. */
function visibleMetadata(metadata: MetadataRecord[], canEdit: boolean): Metadata[] | false {
  const visible = metadata
    .filter((entry) => canEdit || !isProtectedMetaKey(entry.key))
    .map((entry) => ({ id: String(entry.id), key: entry.key, value: entry.value }));
  return visible.length ? visible : false;
}

/** A coordinate stored as metadata (a number or numeric text), if it is one. */
function coordinate(value: unknown): number | undefined {
  if (typeof value !== 'number' && (typeof value !== 'string' || value.trim() === '')) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * Location from the platform's `geo_*` metadata: `false` without valid
 * coordinates, or when `geo_public` is off and the caller cannot edit the post.
 */
function geoOf(metadata: MetadataRecord[], canEdit: boolean): Geo | false {
  const value = (key: string) => metadata.find((entry) => entry.key === key)?.value;
  const geoPublic = value('geo_public');
  if (!canEdit && (geoPublic === '0' || geoPublic === 0 || geoPublic === false)) return false;
  const latitude = coordinate(value('geo_latitude'));
  const longitude = coordinate(value('geo_longitude'));
  if (latitude === undefined || longitude === undefined || Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
    return false;
  const address = value('geo_address');
  return { latitude, longitude, address: typeof address === 'string' ? address : '' };
}

function formatOf(terms: TermRecord[]): Post['format'] {
  const format = terms.find((term) => term.taxonomy === 'post_format')?.slug.replace(/^post-format-/, '');
  return format && POST_FORMATS.has(format) ? (format as Post['format']) : 'standard';
}

/**
 * The v1.1 post object, keys in the real API's order. `title`, `content`
 * and `excerpt` are rendered as HTML for `display` and stored text for
 * `edit`; `author.email` and protected metadata only for a caller who can
 * edit (email only with `context=edit`); `revisions` only with
 * `context=edit` and when there are some; `terms` lists every taxonomy of
 * the post's type; `other_URLs` is `{}` for a published post, else its
 * sample permalink (slug left as a placeholder) and the suggested slug.
 *
 * With `wanted` (the `fields` asked for), only those keys are built, in
 * the same order and each as the whole object has it: what the object
 * trimmed to `wanted` (`pickFields`) would be, with none of the work (and
 * none of the relations, see `needsOf` in postNeeds.ts) the other keys need.
 */
export function postObject(view: PostView, wanted?: ReadonlySet<string>): Post {
  const { site, post, relations, capabilities, context } = view;
  const display = context === 'display';
  const canEdit = capabilities.edit_post;
  const parent = view.parentShown ? relations.ancestors[0] : undefined;
  const featured = relations.featuredMedia;
  // Text stored before the filter by a user without `unfiltered_html` is filtered as it is shown (see `html_unchecked`).
  const unchecked = post.htmlUnchecked;
  const title = () => (unchecked ? filterTitleHtml(post.title) : post.title);
  const content = once(() => (unchecked ? filterPostHtml(post.content) : post.content));
  const excerpt = () => (unchecked ? filterPostHtml(post.excerpt) : post.excerpt);

  const keys: [keyof Post, () => unknown][] = [
    ['ID', () => post.id],
    ['site_ID', () => site.id],
    ['author', () => relations.author && userObject(relations.author, site, !display && canEdit)],
    ['date', () => apiDate(post.date)],
    ['modified', () => apiDate(post.modified)],
    ['title', () => (display ? renderTitle(title()) : title())],
    ['URL', () => permalink(site, post, view.linkAncestors)],
    ['short_URL', () => shortUrl(view.shortlinkBase, site, post)],
    [
      'content',
      () =>
        display
          ? renderContent(content(), { attachments: relations.allAttachments.map(renderAttachment), postId: post.id })
          : content(),
    ],
    ['excerpt', () => (display ? renderExcerpt(excerpt(), content()) : excerpt())],
    ['slug', () => post.slug],
    ['guid', () => post.guid],
    ['status', () => post.status as Post['status']],
    ['sticky', () => post.sticky],
    ['password', () => post.password],
    ['parent', () => parentObject(view, parent)],
    ['type', () => post.type],
    [
      'discussion',
      () => ({
        comments_open: post.commentStatus === 'open',
        comment_status: post.commentStatus === 'open' ? 'open' : 'closed',
        pings_open: post.pingStatus === 'open',
        ping_status: post.pingStatus === 'open' ? 'open' : 'closed',
        comment_count: relations.commentCount,
      }),
    ],
    ['likes_enabled', () => post.likesEnabled],
    ['sharing_enabled', () => post.sharingEnabled],
    ['like_count', () => relations.likeCount],
    ['i_like', () => relations.viewerLikes],
    // Reblogging is not part of this service, so nobody has reblogged anything.
    ['is_reblogged', () => false],
    ['is_following', () => relations.viewerFollowsSite],
    ['global_ID', () => hash('md5', `${site.id}:${post.id}`, 'hex')],
    ['featured_image', () => (featured ? featured.url : '')],
    [
      'post_thumbnail',
      () =>
        featured
          ? {
              ID: featured.id,
              URL: featured.url,
              guid: featured.guid,
              mime_type: featured.mimeType,
              width: featured.width,
              height: featured.height,
            }
          : null,
    ],
    ['format', () => formatOf(relations.terms)],
    ['geo', () => geoOf(relations.metadata, canEdit)],
    ['menu_order', () => post.menuOrder],
    ['page_template', () => post.pageTemplate],
    ['publicize_URLs', () => post.publicizeUrls],
    ['terms', () => termsOfType(view)],
    ['tags', () => termsByName(taxonomyTerms(relations.terms, 'post_tag'), view)],
    ['categories', () => termsByName(taxonomyTerms(relations.terms, 'category'), view)],
    [
      'attachments',
      () =>
        Object.fromEntries(
          relations.recentAttachments
            .slice(0, LISTED_ATTACHMENTS)
            .map((a) => [String(a.id), attachmentObject(a, view.publicUrl, view.site.id)]),
        ),
    ],
    ['attachment_count', () => relations.attachmentCount],
    ['metadata', () => visibleMetadata(relations.metadata, canEdit)],
    ['meta', () => metaOf(view)],
    [
      'capabilities',
      () => ({
        publish_post: capabilities.publish_post,
        delete_post: capabilities.delete_post,
        edit_post: capabilities.edit_post,
      }),
    ],
    ['revisions', () => relations.revisionIds],
    [
      'other_URLs',
      () =>
        post.status === 'publish' && !view.suggestions
          ? {}
          : { permalink_URL: samplePermalink(site, post, view.linkAncestors), suggested_slug: view.suggestedSlug },
    ],
  ];
  const object: Record<string, unknown> = {};
  for (const [key, build] of keys) {
    if (wanted && !wanted.has(key)) continue;
    // `revisions` only with `context=edit` and when there are some.
    if (key === 'revisions' && (display || !relations.revisionIds.length)) continue;
    object[key] = build();
  }
  return object as unknown as Post;
}

/** `make`'s value, made on the first call only. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** A taxonomy's terms among the post's. */
const taxonomyTerms = (terms: TermRecord[], taxonomy: string) => terms.filter((term) => term.taxonomy === taxonomy);

/** `terms`: every taxonomy of the post's type, each its terms by name (`{}` without any). */
function termsOfType(view: PostView): Post['terms'] {
  const terms: Post['terms'] = {};
  for (const taxonomy of TAXONOMIES_OF_TYPE[view.post.type] ?? []) {
    terms[taxonomy] = termsByName(taxonomyTerms(view.relations.terms, taxonomy), view);
  }
  return terms;
}

/** `parent`: the parent the caller may read, else `false`; its title as the post's is shown. */
function parentObject(view: PostView, parent: PostRelations['ancestors'][number] | undefined): Post['parent'] {
  if (!parent) return false;
  const title = parent.htmlUnchecked ? filterTitleHtml(parent.title) : parent.title;
  return {
    ID: parent.id,
    type: parent.type,
    link: apiPostUrl(view.publicUrl, view.site.id, parent.id),
    title: view.context === 'display' ? renderTitle(title) : title,
  };
}

/** `meta`: the post's links, and what the `meta` parameter loaded. */
function metaOf(view: PostView): PostMeta {
  const meta: PostMeta = { links: postApiLinks(view.publicUrl, view.site.id, view.post.id) };
  if (view.autosaveLinked) meta.links.autosave = `${meta.links.self}/autosave`;
  if (view.metaData && Object.keys(view.metaData).length) meta.data = view.metaData;
  return meta;
}
