import { sha256Hex } from '../../../platform/security/secrets.js';
import type {
  Comment,
  MyPostLike,
  PostLikes,
  PostMeta,
  PostReplies,
  Visitor,
} from '../../../../generated/publishing/types.gen.js';
import { renderComment } from '../render/index.js';
import type { CommentRecord, PostRecord, SiteRecord } from '../domain/records.js';
import { apiDate } from '../domain/dates.js';
import { apiPostUrl, apiSiteUrl, type LinkAncestors, permalink, shortUrl } from '../domain/links.js';
import { userObject } from './userObject.js';
import { siteObject, type SiteSource } from './siteObject.js';

export { siteObject, type SiteSource };

/** The `meta.links` names whose answers `meta` can load. */
const LOADABLE_LINKS = ['site', 'likes', 'replies'] as const;
type LoadableLink = (typeof LOADABLE_LINKS)[number];

/** Whether the `meta` query parameter names `autosave` (loaded where the post links a newer autosave: `flows/presentPost.ts`). */
export function asksForAutosave(meta: string | undefined): boolean {
  return (meta ?? '').split(',').some((name) => name.trim() === 'autosave');
}

/**
 * How many likes or comments a link answers by default, and at most (the
 * platform pages comments 20 at a time, `number` up to 100): what `meta`
 * loads, so no answer grows with a post's popularity.
 */
export const LINK_PAGE = { default: 20, max: 100 } as const;

/** What answering a post's links needs. */
export interface PostLinkSource extends SiteSource {
  /** Base of the wp.me-style short links. */
  shortlinkBase: string;
  post: PostRecord;
  /** The post's ancestors, nearest first, as the caller's links may show them (a page's permalink is built on them). */
  ancestors: LinkAncestors;
}

/**
 * The link names the `meta` query parameter asks for: a comma list, trimmed;
 * names that are not loadable links are ignored, repeats count once.
 */
export function requestedMetaLinks(meta: string | undefined): LoadableLink[] {
  const asked = new Set((meta ?? '').split(',').map((name) => name.trim()));
  return LOADABLE_LINKS.filter((name) => asked.has(name));
}

/**
 * The post's likes as `GET /sites/{ID}/posts/{ID}/likes/` (its `meta.links.likes`) answers them: newest like first, no emails,
 * the first `number` (see `LINK_PAGE`); `found` counts them all.
 */
export async function postLikes(
  { store, site, post, viewerId }: PostLinkSource,
  number: number = LINK_PAGE.default,
): Promise<PostLikes> {
  const { found, users: likers } = await store.postLikers(post.id, Math.min(number, LINK_PAGE.max));
  return {
    found,
    i_like: viewerId !== 0 && (await store.likedBy(post.id, viewerId)),
    can_like: post.likesEnabled,
    site_ID: site.id,
    post_ID: post.id,
    likes: likers.map((liker) => userObject(liker, site, false)),
  };
}

/** The caller's like of the post as `GET /sites/{ID}/posts/{ID}/likes/mine/` answers it: whether they like it, and how many do. */
export async function myPostLike({ store, publicUrl, site, post, viewerId }: PostLinkSource): Promise<MyPostLike> {
  const [{ found }, iLike] = await Promise.all([
    store.postLikers(post.id, 0),
    viewerId === 0 ? false : store.likedBy(post.id, viewerId),
  ]);
  const postApi = apiPostUrl(publicUrl, site.id, post.id);
  const self = `${postApi}/likes/mine/`;
  return {
    i_like: iLike,
    like_count: found,
    site_ID: site.id,
    post_ID: post.id,
    meta: {
      links: {
        self,
        help: `${self}help`,
        site: apiSiteUrl(publicUrl, site.id),
        post: postApi,
        likes: `${postApi}/likes/`,
      },
    },
  };
}

/** A commenter: the user object for one with an account, else the visitor's name, website and avatar. */
function commentAuthor(comment: CommentRecord, site: SiteRecord) {
  if (comment.author) return userObject(comment.author, site, false);
  const emailHash = sha256Hex(comment.authorEmail.trim().toLowerCase());
  const visitor: Visitor = {
    ID: 0,
    login: '',
    email: false,
    name: comment.authorName,
    first_name: '',
    last_name: '',
    nice_name: '',
    URL: comment.authorUrl,
    avatar_URL: `https://secure.gravatar.com/avatar/${emailHash}?s=96&d=identicon`,
    profile_URL: '',
  };
  return visitor;
}

/**
 * The post's approved comments as `GET /sites/{ID}/posts/{ID}/replies/` (its `meta.links.replies`) answers them, newest first,
 * the first `number` (see `LINK_PAGE`); `found` counts them all.
 */
export async function postReplies(
  { store, publicUrl, shortlinkBase, site, post, ancestors }: PostLinkSource,
  number: number = LINK_PAGE.default,
): Promise<PostReplies> {
  const { found, comments } = await store.approvedComments(post.id, Math.min(number, LINK_PAGE.max));
  const siteApi = apiSiteUrl(publicUrl, site.id);
  const postApi = apiPostUrl(publicUrl, site.id, post.id);
  const link = permalink(site, post, ancestors);
  const short = shortUrl(shortlinkBase, site, post);
  return {
    found,
    site_ID: site.id,
    comments: comments.map((comment): Comment => {
      const self = `${siteApi}/comments/${comment.id}`;
      return {
        ID: comment.id,
        post: { ID: post.id, title: post.title, type: post.type, link: postApi },
        author: commentAuthor(comment, site),
        date: apiDate(comment.date),
        URL: `${link}#comment-${comment.id}`,
        short_URL: short && `${short}#comment-${comment.id}`,
        content: renderComment(comment.content),
        status: 'approved',
        parent:
          comment.parentId === null
            ? false
            : { ID: comment.parentId, type: 'comment', link: `${siteApi}/comments/${comment.parentId}` },
        type: 'comment',
        like_count: 0,
        i_like: false,
        meta: {
          links: {
            self,
            help: `${self}/help`,
            site: siteApi,
            post: postApi,
            replies: `${self}/replies/`,
            likes: `${self}/likes/`,
          },
        },
      };
    }),
  };
}

/**
 * Loads each named link's own answer into `meta.data.<name>` ("`meta`:
 * comma list of names from `meta.links` (`site`, `likes`, `replies`, ...).
 * Each named link's own response is loaded into `meta.data.<name>`").
 */
export async function loadMetaData(names: LoadableLink[], source: PostLinkSource): Promise<PostMeta['data']> {
  const data: NonNullable<PostMeta['data']> = {};
  for (const name of names) {
    if (name === 'site') data.site = await siteObject(source);
    else if (name === 'likes') data.likes = await postLikes(source);
    else data.replies = await postReplies(source);
  }
  return data;
}
