import type { MetadataInput, PostInput, PostInputV12, TermNames } from '../../../../generated/publishing/types.gen.js';
import { ApiError } from '../../../platform/answers/errors.js';
import type { PublishingStore } from './publishingStore.js';
import type { SiteRecord } from './records.js';
import { slugFromTitle } from './postObject.js';

/**
 * What a write sets besides the post's own columns, as the platform's v1.1
 * update-post endpoint sets it: the author (`author`), the terms
 * (`categories`, `tags`, `format`) and the metadata (`metadata`).
 */

/** Taxonomies each body field writes, for the post types that have them. */
const TERM_FIELDS = [
  { field: 'categories', taxonomy: 'category', hierarchical: true },
  { field: 'tags', taxonomy: 'post_tag', hierarchical: false },
] as const;

/** Post types with categories, tags and formats (the platform registers them for `post` only). */
const TYPES_WITH_TERMS: ReadonlySet<string> = new Set(['post']);

/** The names the platform gives the format terms (`get_post_format_strings`). */
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  aside: 'Aside',
  chat: 'Chat',
  gallery: 'Gallery',
  link: 'Link',
  image: 'Image',
  quote: 'Quote',
  status: 'Status',
  video: 'Video',
  audio: 'Audio',
};

/** The slug of the category a post gets when it is given none (the platform's `default_category`). */
const DEFAULT_CATEGORY_SLUG = 'uncategorized';

/** The user a body's `author` names (a user ID, or a login); 400 `invalid_author` when there is none. */
async function authorNamed(store: PublishingStore, author: number | string): Promise<number> {
  const text = String(author).trim();
  const user = /^\d+$/.test(text) ? await store.findUserById(Number(text)) : await store.findUserByLogin(text);
  if (!user) throw new ApiError(400, 'invalid_author', 'Invalid author provided');
  return user.id;
}

/**
 * The author a write gives the post, when its body names one (an empty
 * `author` names none): 400 `invalid_author` when no such user; giving it to
 * another user needs `edit_others_posts` (403 `User is not allowed to publish
 * others' posts.`), and that user must be able to write posts on the site
 * (403 `Assigned author cannot publish post.`).
 */
export async function resolveAuthor(
  store: PublishingStore,
  site: SiteRecord,
  viewerId: number,
  roleCapabilities: ReadonlySet<string>,
  author: PostInput['author'],
): Promise<number | undefined> {
  // PHP's empty(): no author named.
  if (author === undefined || author === '' || author === 0 || author === '0') return undefined;
  const authorId = await authorNamed(store, author);
  if (authorId === viewerId) return authorId;
  if (!roleCapabilities.has('edit_others_posts')) throw new ApiError(403, 'unauthorized', "User is not allowed to publish others' posts.");
  if (!(await store.capabilitiesOf(site.id, authorId)).has('edit_posts')) throw new ApiError(403, 'unauthorized', 'Assigned author cannot publish post.');
  return authorId;
}

/**
 * The names and IDs a `categories` or `tags` field lists (a comma list or an array; digits are an ID, but with
 * `namesOnly`, as REST v1.2 reads them, every entry is a name), trimmed, empty ones dropped.
 */
function termsListed(value: TermNames, namesOnly = false): { ids: number[]; names: string[] } {
  const items = typeof value === 'string' ? value.split(',') : value;
  const ids: number[] = [];
  const names: string[] = [];
  for (const item of items) {
    const text = String(item).trim();
    if (text === '') continue;
    if (!namesOnly && /^\d+$/.test(text)) ids.push(Number(text));
    else names.push(text);
  }
  return { ids, names };
}

/** Which version's rules a write follows: v1.2 reads `categories` and `tags` as names only, takes IDs from `*_by_id`, and adds new terms only for callers who may edit them. */
export type WriteVersion = '1.1' | '1.2';

/**
 * Sets the post's categories and tags a body names, each field replacing
 * the post's terms of its taxonomy: existing terms by ID, slug or name; a
 * name the site does not have is added when the caller may (categories:
 * `manage_categories`; tags: `edit_posts`), else skipped; an unknown ID is
 * skipped. Categories that come out empty are the site's default category,
 * as are those of a new post whose body names none (`wp_insert_post` gives a
 * post of type `post` the `default_category` option when it has no category).
 */
async function applyTerms(
  store: PublishingStore,
  site: SiteRecord,
  postId: number,
  roleCapabilities: ReadonlySet<string>,
  body: PostInputV12,
  created: boolean,
  version: WriteVersion,
) {
  for (const { field, taxonomy, hierarchical } of TERM_FIELDS) {
    const v12 = version === '1.2';
    const byId = v12 ? body[`${field}_by_id`] : undefined;
    const value = body[field] ?? (byId !== undefined || (created && hierarchical) ? [] : undefined);
    if (value === undefined) continue;
    const { ids, names } = termsListed(value, v12);
    // v1.2's `*_by_id`: only what looks like an ID, added to the names.
    if (byId !== undefined) ids.push(...termsListed(byId).ids);
    const found = await store.findTerms(site.id, taxonomy, ids, names.map((name) => slugFromTitle(name)).concat(names));
    const termIds = found.filter((term) => ids.includes(term.id)).map((term) => term.id);
    // v1.2 adds a term only for a caller with the taxonomy's `edit_terms` (`manage_categories`, for tags too).
    const mayAdd = roleCapabilities.has(hierarchical || v12 ? 'manage_categories' : 'edit_posts');
    for (const name of names) {
      const slug = slugFromTitle(name);
      const existing = found.find((term) => term.slug === slug || term.name === name);
      if (existing) termIds.push(existing.id);
      else if (mayAdd && slug !== '') termIds.push((await store.addTerm(site.id, taxonomy, name, slug)).id);
    }
    if (hierarchical && !termIds.length) {
      const [fallback] = await store.findTerms(site.id, taxonomy, [], [DEFAULT_CATEGORY_SLUG]);
      if (fallback) termIds.push(fallback.id);
    }
    await store.setPostTerms(postId, taxonomy, termIds);
  }
}

/** Sets the post's format: `default` and `standard` leave it without one; another format is its `post-format-*` term (added to the site when missing). */
async function applyFormat(store: PublishingStore, site: SiteRecord, postId: number, format: NonNullable<PostInput['format']>) {
  const name = FORMAT_NAMES[format];
  if (!name) return store.setPostTerms(postId, 'post_format', []);
  const slug = `post-format-${format}`;
  const [existing] = (await store.findTerms(site.id, 'post_format', [], [slug])).filter((term) => term.slug === slug);
  const term = existing ?? (await store.addTerm(site.id, 'post_format', name, slug));
  await store.setPostTerms(postId, 'post_format', [term.id]);
}

/** PHP's `empty()`, as the platform tests metadata fields with it. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === false || value === 0 || value === '' || value === '0' || (Array.isArray(value) && value.length === 0);

/** Protected metadata keys (`_` first): no caller may write them through the API (the platform's `is_protected_meta`). */
const isProtectedKey = (key: string) => key.startsWith('_');

/** Whether a stored value is the `previous_value` a client named (the platform compares them as stored text). */
const sameValue = (stored: unknown, previous: unknown) =>
  stored === previous || (typeof stored !== 'object' && typeof previous !== 'object' && String(stored) === String(previous));

/**
 * Applies the body's metadata operations in turn, as the platform's
 * endpoint does: `"true"` and `"false"` are booleans; an `id` must be one of
 * this post's entries (and of `key`, when given), else the entry is skipped;
 * protected keys are skipped. `add` needs a key and a non-empty value (and no
 * `id` or `previous_value`); `update` (the default) needs a value, and sets
 * the entry of `id`, or the entries of `key` holding `previous_value`, or
 * every entry of `key` (adding one when there is none); `delete` removes the
 * entry of `id`, or the entries of `key` (holding `previous_value`, when given).
 */
async function applyMetadata(store: PublishingStore, postId: number, operations: MetadataInput[]) {
  for (const operation of operations) {
    const entries = await store.postMetadata(postId);
    let value = operation.value;
    if (!isEmpty(value) && (value === 'true' || value === 'false')) value = value === 'true';
    const id = isEmpty(operation.id) ? undefined : Number(operation.id);
    const key = isEmpty(operation.key) ? undefined : operation.key;
    const byId = id === undefined ? undefined : entries.find((entry) => entry.id === id);
    // Only this post's metadata, and only the entry of the key given with it.
    if (id !== undefined && (!byId || (key !== undefined && byId.key !== key))) continue;
    const targetKey = byId?.key ?? key;
    if (targetKey === undefined || isProtectedKey(targetKey)) continue;
    const previous = operation.previous_value;
    const ofKey = entries.filter((entry) => entry.key === targetKey);
    const matching = isEmpty(previous) ? ofKey : ofKey.filter((entry) => sameValue(entry.value, previous));
    switch (operation.operation ?? 'update') {
      case 'delete':
        await store.deletePostMetadata(byId ? [byId.id] : matching.map((entry) => entry.id));
        break;
      case 'add':
        if (id === undefined && isEmpty(previous) && !isEmpty(value)) await store.addPostMetadata(postId, targetKey, value);
        break;
      case 'update':
        if (value === undefined || value === null) break;
        // A key without entries gets one, whatever `previous_value` says (the platform's `update_metadata`).
        if (byId) await store.updatePostMetadata([byId.id], value);
        else if (!ofKey.length) await store.addPostMetadata(postId, targetKey, value);
        else await store.updatePostMetadata(matching.map((entry) => entry.id), value);
        break;
    }
  }
}

/**
 * Sets what the body names of the post's terms (for types that have them) and metadata, after the post itself is saved;
 * a post just `created` without categories gets the site's default category.
 */
export async function applyWriteFields(
  store: PublishingStore,
  site: SiteRecord,
  post: { id: number; type: string },
  roleCapabilities: ReadonlySet<string>,
  body: PostInputV12,
  { created = false, version = '1.1' }: { created?: boolean; version?: WriteVersion } = {},
): Promise<void> {
  if (TYPES_WITH_TERMS.has(post.type)) {
    await applyTerms(store, site, post.id, roleCapabilities, body, created, version);
    if (body.format !== undefined) await applyFormat(store, site, post.id, body.format);
  }
  if (body.metadata?.length) await applyMetadata(store, post.id, body.metadata);
}
