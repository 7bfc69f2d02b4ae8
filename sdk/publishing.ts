/**
 * Publishing's answers typed by the call's own options, which hey-api cannot
 * do (an operation's 200 is one `anyOf` of its body and its envelope, a
 * post's of the full post and the picked fields too, a site list's of the
 * full sites and the picked ones). Every operation is exported here
 * (`test/tooling/sdk-docs-examples.test.ts` fails on one that is not),
 * `scripts/build-sdk.ts` exports these instead of the plain wrappers of the
 * same names; the code is theirs, only the types differ.
 */
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

/**
 * An object (`Whole`) as `fields` leaves it: the named keys of a literal
 * list, any keys (`Loose`, every key optional) for a list known only at run
 * time, all of them for none (nor for a list naming nothing, as the server
 * reads it).
 */
type Picked<F, Whole, Loose> = F extends string
  ? string extends F
    ? Loose
    : [Exclude<Names<F>, ''>] extends [never]
      ? Whole
      : Pick<Whole, Exclude<Names<F>, ''> & keyof Whole>
  : Whole;

/** A post as `fields` leaves it. */
type PickedPost<F> = Picked<F, T.Post, T.PostFields>;
/** A site (of `/me/sites` too) as `fields` leaves it. */
type PickedSite<F> = Picked<F, T.Site, T.SiteFields>;

/** A plain operation (`operations.ts`): its options, and its `Result`. */
type Plain = (options: never) => Promise<{ status: number }>;

/**
 * The options a plain operation takes: the SDK's, and its own `path`,
 * `query`, `body` and `headers` as the contract declares them. Read from
 * the parameter as it is, not by inferring `CallOptions<TData>`'s `TData`,
 * which TypeScript cannot do through its `Omit` (it would fall back to any
 * path, query and body at all).
 */
type OptionsOf<Op extends Plain> = NonNullable<Parameters<Op>[0]>;

/** The query an operation declares, less `callback`: JSONP is for `<script>` tags, not for this client. */
type Query<Op extends Plain> = Omit<NonNullable<OptionsOf<Op>['query']>, 'callback'>;

/**
 * The call's query `Q` checked against the operation's: every key of `Q`
 * one the operation declares (a key it does not, `feilds` or a media file's
 * `http_envelope`, is refused as `never`: `Q` is inferred from the call, so
 * no excess-property check would catch it), with its declared type.
 */
type Checked<Q, Op extends Plain> = Q & Query<Op> & NoInfer<{ [K in Exclude<keyof Q, keyof Query<Op>>]: never }>;

/** Every envelope an operation may answer with `http_envelope`. */
type AnyEnvelope = T.Envelope | T.ListEnvelope | T.BulkEnvelope | T.ResourceEnvelope | T.MediaEnvelope;

/**
 * `http_envelope` on: the envelope `Env`; off: `Body`; not known before the
 * call: either. An operation whose contract names no envelope (the OpenAPI
 * document: any object, its envelope too) answers `Body` whatever the flag.
 */
type Enveloped<Q, Body, Env> =
  On<'http_envelope' extends keyof Q ? Q['http_envelope'] : undefined> extends infer E
    ? [Env] extends [never]
      ? Body
      : [E] extends [true]
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
type Typed<Op extends Plain, Q> = Omit<OptionsOf<Op>, 'query'> & { query?: Checked<Q, Op> };

/** The options as the operation takes them: optional where the contract requires no path, query or body (`getMe()`). */
type Options<Op extends Plain, O> = undefined extends Parameters<Op>[0] ? [options?: O] : [options: O];
type AnswerOf<Op extends Plain> = Awaited<ReturnType<Op>>;
/** What the contract says a 200 of the operation may be: its body or its envelope. */
type OkOf<Op extends Plain> = Extract<AnswerOf<Op>, { status: 200 }> extends { data: infer D } ? D : never;

/** The operation's `Result` with its 200's `data` made `Data`; every other status as it was. */
type Retyped<Answer, Data> = Answer extends { status: 200 } ? Omit<Answer, 'data'> & { data: Data } : Answer;

/** A call whose 200 answers `Body<Q>` (chosen by `Kind`), or with `http_envelope: true` the operation's envelope. */
type Call<Op extends Plain, Kind> = <const Q extends object = {}>(
  ...options: Options<Op, Typed<Op, Q>>
) => Promise<Retyped<AnswerOf<Op>, Enveloped<Q, BodyOf<Op, Kind, Q>, Extract<OkOf<Op>, AnyEnvelope>>>>;

/** Where a list of terms answers its terms: `categories`, `tags`, or (a taxonomy's terms) `terms`, and nowhere else. */
type TermsKey = 'categories' | 'tags' | 'terms';

/**
 * The body of a 200 without the envelope: a post as `fields` leaves it, a
 * list of such posts, the caller's sites each as `fields` leaves it, a page
 * of terms under the one key its operation answers them under, or the
 * operation's one body.
 */
type BodyOf<Op extends Plain, Kind, Q> = Kind extends 'post'
  ? PickedPost<FieldsOf<Q>>
  : Kind extends 'list'
    ? Omit<T.PostList, 'posts'> & { posts: PickedPost<FieldsOf<Q>>[] }
    : Kind extends 'site'
      ? PickedSite<FieldsOf<Q>>
      : Kind extends 'sites'
        ? Omit<T.MySites, 'sites'> & { sites: PickedSite<FieldsOf<Q>>[] }
        : Kind extends { terms: infer K extends TermsKey }
          ? Omit<T.TermList, TermsKey> & { [P in K]: T.Term[] }
          : Exclude<OkOf<Op>, AnyEnvelope>;

/** An operation answering a post: the full `Post`; with `fields: 'ID,title'` just those keys; with `http_envelope: true` the `Envelope`. */
type PostCall<Op extends Plain> = Call<Op, 'post'>;
/** An operation answering a list of posts, each as `fields` leaves it. */
type ListCall<Op extends Plain> = Call<Op, 'list'>;
/** An operation answering its one body, or with `http_envelope: true` its envelope. */
type BodyCall<Op extends Plain> = Call<Op, 'body'>;
/** An operation answering a site: the full `Site`; with `fields: 'ID,name'` just those keys. */
type SiteCall<Op extends Plain> = Call<Op, 'site'>;
/** An operation answering the caller's sites (`MySites`), each as `fields` leaves it. */
type SitesCall<Op extends Plain> = Call<Op, 'sites'>;
/** An operation answering a page of terms (`TermList`) under `K` alone. */
type TermsCall<Op extends Plain, K extends TermsKey> = Call<Op, { terms: K }>;

/**
 * A call whose body is sent as `multipart/form-data` (`B`, the SDK's own
 * type for it: files as `Blob`s), answering as a `BodyCall`.
 */
type MultipartCall<Op extends Plain, B> = <const Q extends object = {}>(
  options: Omit<OptionsOf<Op>, 'query' | 'body' | 'bodySerializer'> & {
    query?: Checked<Q, Op>;
    body: B;
  },
) => Promise<Retyped<AnswerOf<Op>, Enveloped<Q, BodyOf<Op, 'body', Q>, Extract<OkOf<Op>, AnyEnvelope>>>>;

const post = <Op extends Plain>(operation: Op) => operation as unknown as PostCall<Op>;
const list = <Op extends Plain>(operation: Op) => operation as unknown as ListCall<Op>;
const body = <Op extends Plain>(operation: Op) => operation as unknown as BodyCall<Op>;
const site = <Op extends Plain>(operation: Op) => operation as unknown as SiteCall<Op>;
const sites = <Op extends Plain>(operation: Op) => operation as unknown as SitesCall<Op>;
const terms =
  <K extends TermsKey>(_key: K) =>
  <Op extends Plain>(operation: Op) =>
    operation as unknown as TermsCall<Op, K>;

/**
 * A file to upload: a `Blob` (a `File` sends its own name), or a `Blob`
 * with the file name to send (the server checks a file by its content, and
 * names the item and its URL after the name).
 */
export type MediaFile = Blob | { file: Blob; filename: string };

/**
 * `uploadMedia`'s body, sent as `multipart/form-data` as the platform's
 * clients send it: each file as `media[]`, each URL as `media_urls[]`, and
 * per file (the files first, then the URLs) its attributes as
 * `attrs[i][title]` (the contract's `MediaAttributes`: `title`, `caption`,
 * `description`, `alt`, `parent_id`). An entry without attributes sends
 * nothing, and the server reads the entries it is sent in order: give every
 * file before the last one with attributes at least one (its `title`).
 */
export type MediaUploadBody = Omit<T.MediaUploadInput, 'media' | 'media_urls' | 'attrs'> & {
  media?: readonly MediaFile[];
  media_urls?: Readonly<Extract<T.MediaUploadInput['media_urls'], readonly unknown[]>>;
  attrs?: Readonly<Extract<T.MediaUploadInput['attrs'], readonly unknown[]>>;
};

/**
 * `editMediaV12`'s body, sent as `multipart/form-data`: the new file as
 * `media` (or `media_url` to fetch it from), and the attributes to set
 * (the contract's `MediaEditInput`).
 */
export type MediaEditBody = Omit<T.MediaEditInput, 'media'> & { media?: MediaFile };

const isFile = (value: unknown): value is MediaFile =>
  value instanceof Blob ||
  (typeof value === 'object' && value !== null && 'file' in value && value.file instanceof Blob);

/**
 * A body as PHP's bracket notation spells a form, the spelling the
 * platform's endpoints read: a list of files or texts as `name[]`, a list
 * of objects as `name[i][key]`, an object as `name[key]`; `undefined` and
 * `null` are left out.
 */
function phpFormData(body: unknown): FormData {
  const form = new FormData();
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (isFile(value)) {
      if (value instanceof Blob) form.append(name, value);
      else form.append(name, value.file, value.filename);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) =>
        add(typeof item === 'object' && item !== null && !isFile(item) ? `${name}[${index}]` : `${name}[]`, item),
      );
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    } else form.append(name, String(value));
  };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) add(key, value);
  return form;
}

/** The call's headers without any `Content-Type`, and `null` for it, which hey-api's client takes as "send none": fetch then writes the multipart one, with its boundary. */
function withoutContentType(headers: unknown): Record<string, unknown> {
  const own: Record<string, unknown> =
    headers instanceof Headers || Array.isArray(headers)
      ? Object.fromEntries(new Headers(headers as HeadersInit))
      : { ...(headers as Record<string, unknown> | undefined) };
  for (const name of Object.keys(own)) if (name.toLowerCase() === 'content-type') delete own[name];
  return { ...own, 'Content-Type': null };
}

/**
 * An operation whose contract declares JSON first and multipart too, sent
 * as multipart (hey-api builds the JSON one, which carries no file): the
 * body as `phpFormData` writes it.
 */
const multipart =
  <B>() =>
  <Op extends Plain>(operation: Op) =>
    ((options: { headers?: unknown }) =>
      operation({
        ...options,
        bodySerializer: phpFormData,
        headers: withoutContentType(options.headers),
      } as never)) as unknown as MultipartCall<Op, B>;

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
export const getSite = site(plain.getSite);
/** The caller's user. */
export const getMe = body(plain.getMe);
/** The caller's sites. */
export const getMySites = sites(plain.getMySites);
/** The caller's sites (v1.2). */
export const getMySitesV12 = sites(plain.getMySitesV12);
/** Counts a site's posts per status. */
export const getPostCounts = body(plain.getPostCounts);
/** Counts a site's posts of a type per status (v1.2). */
export const getPostCountsV12 = body(plain.getPostCountsV12);
/** Trashes (or deletes) many posts. */
export const bulkDeletePosts = body(plain.bulkDeletePosts);
/** Restores many posts. */
export const bulkRestorePosts = body(plain.bulkRestorePosts);
/** Reads a post's likes. */
export const getPostLikes = body(plain.getPostLikes);
/** Reads a post's likes (v1.2). */
export const getPostLikesV12 = body(plain.getPostLikesV12);
/** Whether the caller likes a post, and how many do. */
export const getMyPostLike = body(plain.getMyPostLike);
/** Reads a post's replies. */
export const getPostReplies = body(plain.getPostReplies);
/** A site's post types. */
export const listPostTypes = body(plain.listPostTypes);
/** The taxonomies of a post type. */
export const listPostTypeTaxonomies = body(plain.listPostTypeTaxonomies);
/** A site's categories, under `categories`. */
export const listCategories = terms('categories')(plain.listCategories);
/** Creates a category. */
export const createCategory = body(plain.createCategory);
/** Reads a category by slug. */
export const getCategoryBySlug = body(plain.getCategoryBySlug);
/** Edits a category. */
export const updateCategory = body(plain.updateCategory);
/** Deletes a category. */
export const deleteCategory = body(plain.deleteCategory);
/** A site's tags, under `tags`. */
export const listTags = terms('tags')(plain.listTags);
/** Creates a tag. */
export const createTag = body(plain.createTag);
/** Reads a tag by slug. */
export const getTagBySlug = body(plain.getTagBySlug);
/** Edits a tag. */
export const updateTag = body(plain.updateTag);
/** Deletes a tag. */
export const deleteTag = body(plain.deleteTag);
/** The terms of a taxonomy (`category` or `post_tag`), under `terms`. */
export const listTaxonomyTerms = terms('terms')(plain.listTaxonomyTerms);
/** Adds a term to a taxonomy. */
export const createTaxonomyTerm = body(plain.createTaxonomyTerm);
/** Reads a term of a taxonomy by slug. */
export const getTaxonomyTerm = body(plain.getTaxonomyTerm);
/** Edits a term of a taxonomy. */
export const updateTaxonomyTerm = body(plain.updateTaxonomyTerm);
/** Deletes a term of a taxonomy. */
export const deleteTaxonomyTerm = body(plain.deleteTaxonomyTerm);
/** Reads a post's autosave. */
export const getPostAutosave = body(plain.getPostAutosave);
/** Autosaves a post. */
export const autosavePost = body(plain.autosavePost);
/** A post's revisions and their differences. */
export const getPostDiffs = body(plain.getPostDiffs);
/** A page's revisions and their differences. */
export const getPageDiffs = body(plain.getPageDiffs);
/** A site's media library, a page at a time. */
export const listMedia = body(plain.listMedia);
/** Reads a media item. */
export const getMedia = body(plain.getMedia);
/** Reads a media item with its history (v1.2). */
export const getMediaV12 = body(plain.getMediaV12);
/** Edits a media item's attributes. */
export const updateMedia = body(plain.updateMedia);
/** Deletes a media item and its files. */
export const deleteMedia = body(plain.deleteMedia);
/** Uploads files (and files fetched from URLs) to a site's media library, as `multipart/form-data`. */
export const uploadMedia = multipart<MediaUploadBody>()(plain.uploadMedia);
/** Replaces a media item's file and sets its attributes (v1.2), as `multipart/form-data`. */
export const editMediaV12 = multipart<MediaEditBody>()(plain.editMediaV12);
/** A media file's bytes (an image resized on request), as a `Blob`. */
export const getMediaFile = body(plain.getMediaFile);
/** This API's OpenAPI document, as JSON. */
export const getOpenApiDocument = body(plain.getOpenApiDocument);
