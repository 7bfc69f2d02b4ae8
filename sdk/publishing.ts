/**
 * Publishing's answers typed by the call's own options, which hey-api cannot
 * do (the contract's 200 is one `anyOf` of the post, the picked fields and the
 * envelope). `scripts/build-sdk.ts` exports these instead of the plain
 * wrappers of the same names; the code is theirs, only the types differ.
 */
import type { CallOptions, Result } from './layer.js';
import * as plain from './operations.js';
import type * as T from './types.gen.js';

/** How the server reads a flag: `true`, `1`, `t`, in any case, is on; anything else is off. */
type On<F> = F extends true
  ? true
  : F extends false | undefined
    ? false
    : F extends string
      ? string extends F
        ? boolean
        : Lowercase<F> extends '1' | 't' | 'true'
          ? true
          : false
      : boolean;

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
/** The names in a comma-separated list, trimmed, as the server splits `fields`. */
type Names<S extends string> = S extends `${infer Head},${infer Tail}` ? Trim<Head> | Names<Tail> : Trim<S>;

/** A post as `fields` leaves it: the named keys of a literal list, any keys for a list known only at run time, all of them for none. */
type PickedPost<F> = F extends string
  ? string extends F
    ? T.PostFields
    : [Exclude<Names<F>, ''>] extends [never]
      ? T.Post
      : Pick<T.Post, Exclude<Names<F>, ''> & keyof T.Post>
  : T.Post;

/** The query an operation declares, less `callback`: JSONP is for `<script>` tags, not for this client. */
type Query<TData extends { query?: unknown }> = Omit<NonNullable<TData['query']>, 'callback'>;

/** `http_envelope` on: the envelope; off: `Body`; not known before the call: either. */
type Enveloped<Q, Body> =
  On<'http_envelope' extends keyof Q ? Q['http_envelope'] : undefined> extends infer E
    ? [E] extends [true]
      ? T.Envelope
      : [E] extends [false]
        ? Body
        : T.Envelope | Body
    : never;

/**
 * `Q` is the call's own query (`const` keeps `'ID,title'` and `true`
 * literal; no query is `{}`), checked against the operation's by the
 * intersection, since a constraint on `Q` could not default to `{}`.
 */
type Typed<TData extends { query?: unknown; url: string }, Q> = Omit<CallOptions<TData>, 'query'> & {
  query?: Q & Query<TData>;
};

/** A call answering a post: the full `Post`; with `fields: 'ID,title'` just those keys; with `http_envelope: true` the `Envelope`. */
type PostCall<TData extends { query?: unknown; url: string }, Errors> = <const Q extends object = {}>(
  options: Typed<TData, Q>,
) => Promise<Result<{ 200: Enveloped<Q, PickedPost<'fields' extends keyof Q ? Q['fields'] : undefined>> }, Errors>>;

/** A call answering `Body`, or with `http_envelope: true` the `Envelope`. */
type BodyCall<TData extends { query?: unknown; url: string }, Body, Errors> = <const Q extends object = {}>(
  options: Typed<TData, Q>,
) => Promise<Result<{ 200: Enveloped<Q, Body> }, Errors>>;

const typed = <F>(operation: (options: never) => Promise<unknown>): F => operation as F;

/** Reads a post. */
export const getPost = typed<PostCall<T.GetPostData, T.GetPostErrors>>(plain.getPost);
/** Moves a post to the trash (or deletes a trashed one for good). */
export const deletePost = typed<PostCall<T.DeletePostData, T.DeletePostErrors>>(plain.deletePost);
/** Restores a post from the trash. */
export const restorePost = typed<PostCall<T.RestorePostData, T.RestorePostErrors>>(plain.restorePost);
/** Reads a site. */
export const getSite = typed<BodyCall<T.GetSiteData, T.Site, T.GetSiteErrors>>(plain.getSite);
/** Reads a post's likes. */
export const getPostLikes = typed<BodyCall<T.GetPostLikesData, T.PostLikes, T.GetPostLikesErrors>>(plain.getPostLikes);
/** Whether the caller likes a post, and how many do. */
export const getMyPostLike = typed<BodyCall<T.GetMyPostLikeData, T.MyPostLike, T.GetMyPostLikeErrors>>(
  plain.getMyPostLike,
);
/** Reads a post's replies. */
export const getPostReplies = typed<BodyCall<T.GetPostRepliesData, T.PostReplies, T.GetPostRepliesErrors>>(
  plain.getPostReplies,
);
