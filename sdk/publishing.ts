/**
 * Publishing's answers typed by the call's own options, which hey-api cannot
 * do (every operation's 200 is one `anyOf` of its body and its envelope, a
 * post's of the full post and the picked fields too). Every operation is
 * exported here, `scripts/build-sdk.ts` exports these instead of the plain
 * wrappers of the same names; the code is theirs, only the types differ.
 */
import type { CallOptions } from './layer.js';
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

/** The `fields` of a call's query, or undefined. */
type FieldsOf<Q> = 'fields' extends keyof Q ? Q['fields'] : undefined;

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

/** Every envelope an operation may answer with `http_envelope`. */
type AnyEnvelope = T.Envelope | T.ListEnvelope | T.BulkEnvelope | T.ResourceEnvelope;

/** `http_envelope` on: the envelope `Env`; off: `Body`; not known before the call: either. */
type Enveloped<Q, Body, Env> =
  On<'http_envelope' extends keyof Q ? Q['http_envelope'] : undefined> extends infer E
    ? [E] extends [true]
      ? Env
      : [E] extends [false]
        ? Body
        : Env | Body
    : never;

/**
 * `Q` is the call's own query (`const` keeps `'ID,title'` and `true`
 * literal; no query is `{}`), checked against the operation's by the
 * intersection, since a constraint on `Q` could not default to `{}`.
 */
type Typed<TData extends { query?: unknown; url: string }, Q> = Omit<CallOptions<TData>, 'query'> & {
  query?: Q & Query<TData>;
};

/** A plain operation: its options' data type, and its `Result`. */
type Plain = (options: never) => Promise<{ status: number }>;
type DataOf<Op extends Plain> = Parameters<Op>[0] extends CallOptions<infer TData> ? TData : never;
type AnswerOf<Op extends Plain> = Awaited<ReturnType<Op>>;
/** What the contract says a 200 of the operation may be: its body or its envelope. */
type OkOf<Op extends Plain> = Extract<AnswerOf<Op>, { status: 200 }> extends { data: infer D } ? D : never;

/** The operation's `Result` with its 200's `data` made `Data`; every other status as it was. */
type Retyped<Answer, Data> = Answer extends { status: 200 } ? Omit<Answer, 'data'> & { data: Data } : Answer;

/** A call whose 200 answers `Body<Q>` (chosen by `Kind`), or with `http_envelope: true` the operation's envelope. */
type Call<Op extends Plain, Kind> = <const Q extends object = {}>(
  options: Typed<DataOf<Op> & { url: string }, Q>,
) => Promise<Retyped<AnswerOf<Op>, Enveloped<Q, BodyOf<Op, Kind, Q>, Extract<OkOf<Op>, AnyEnvelope>>>>;

/** The body of a 200 without the envelope: a post as `fields` leaves it, a list of such posts, or the operation's one body. */
type BodyOf<Op extends Plain, Kind, Q> = Kind extends 'post'
  ? PickedPost<FieldsOf<Q>>
  : Kind extends 'list'
    ? Omit<T.PostList, 'posts'> & { posts: PickedPost<FieldsOf<Q>>[] }
    : Exclude<OkOf<Op>, AnyEnvelope>;

/** An operation answering a post: the full `Post`; with `fields: 'ID,title'` just those keys; with `http_envelope: true` the `Envelope`. */
type PostCall<Op extends Plain> = Call<Op, 'post'>;
/** An operation answering a list of posts, each as `fields` leaves it. */
type ListCall<Op extends Plain> = Call<Op, 'list'>;
/** An operation answering its one body, or with `http_envelope: true` its envelope. */
type BodyCall<Op extends Plain> = Call<Op, 'body'>;

const post = <Op extends Plain>(operation: Op) => operation as unknown as PostCall<Op>;
const list = <Op extends Plain>(operation: Op) => operation as unknown as ListCall<Op>;
const body = <Op extends Plain>(operation: Op) => operation as unknown as BodyCall<Op>;

/** Reads a post by ID. */
export const getPost = post(plain.getPost);
/** Reads a post by slug. */
export const getPostBySlug = post(plain.getPostBySlug);
/** Creates a post. */
export const createPost = post(plain.createPost);
/** Edits a post. */
export const updatePost = post(plain.updatePost);
/** Moves a post to the trash (or deletes a trashed one for good). */
export const deletePost = post(plain.deletePost);
/** Restores a post from the trash. */
export const restorePost = post(plain.restorePost);
/** Reads a post (v1.2). */
export const getPostV12 = post(plain.getPostV12);
/** Creates a post (v1.2). */
export const createPostV12 = post(plain.createPostV12);
/** Edits a post (v1.2). */
export const updatePostV12 = post(plain.updatePostV12);
/** Lists posts. */
export const listPosts = list(plain.listPosts);
/** Lists posts (v1.2). */
export const listPostsV12 = list(plain.listPostsV12);
/** Reads a site. */
export const getSite = body(plain.getSite);
/** The caller's user. */
export const getMe = body(plain.getMe);
/** The caller's sites. */
export const getMySites = body(plain.getMySites);
/** Counts a site's posts per status. */
export const getPostCounts = body(plain.getPostCounts);
/** Trashes (or deletes) many posts. */
export const bulkDeletePosts = body(plain.bulkDeletePosts);
/** Restores many posts. */
export const bulkRestorePosts = body(plain.bulkRestorePosts);
/** Reads a post's likes. */
export const getPostLikes = body(plain.getPostLikes);
/** Whether the caller likes a post, and how many do. */
export const getMyPostLike = body(plain.getMyPostLike);
/** Reads a post's replies. */
export const getPostReplies = body(plain.getPostReplies);
/** A site's post types. */
export const listPostTypes = body(plain.listPostTypes);
/** A site's categories. */
export const listCategories = body(plain.listCategories);
/** Creates a category. */
export const createCategory = body(plain.createCategory);
/** Reads a category by slug. */
export const getCategoryBySlug = body(plain.getCategoryBySlug);
/** Edits a category. */
export const updateCategory = body(plain.updateCategory);
/** Deletes a category. */
export const deleteCategory = body(plain.deleteCategory);
/** A site's tags. */
export const listTags = body(plain.listTags);
/** Creates a tag. */
export const createTag = body(plain.createTag);
/** Reads a tag by slug. */
export const getTagBySlug = body(plain.getTagBySlug);
/** Edits a tag. */
export const updateTag = body(plain.updateTag);
/** Deletes a tag. */
export const deleteTag = body(plain.deleteTag);
/** Reads a post's autosave. */
export const getPostAutosave = body(plain.getPostAutosave);
/** Autosaves a post. */
export const autosavePost = body(plain.autosavePost);
/** A post's revisions and their differences. */
export const getPostDiffs = body(plain.getPostDiffs);
