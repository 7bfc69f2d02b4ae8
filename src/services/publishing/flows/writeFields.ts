import type { MetadataInput, TermNames } from '../../../../generated/publishing/types.gen.js';
import { authorCannotPublish, cannotPublishOthers, invalidAuthor } from '../errors.js';
import type { PublishingStore } from '../domain/publishingStore.js';
import type { SiteRecord } from '../domain/records.js';
import { HIERARCHICAL_TAXONOMIES, slugFromTitle, TAXONOMIES_OF_TYPE } from './postObject.js';
import type { WriteInput } from './writeInput.js';
import { type StoredText, storedText } from '../domain/storedText.js';

/**
 * What a write sets besides the post's own columns, as the platform's v1.1
 * update-post endpoint sets it: the author (`author`), the terms (`terms`,
 * `categories`, `tags`, `format`), the featured image (`featured_image`) and
 * the metadata (`metadata`).
 */

/** The taxonomy each shorthand field merges into (`categories` into `terms.category`). */
const SHORTHAND_FIELDS = [
  { field: 'categories', byId: 'categories_by_id', taxonomy: 'category' },
  { field: 'tags', byId: 'tags_by_id', taxonomy: 'post_tag' },
] as const;

/** Post types with formats (the platform registers them for `post` only). */
const TYPES_WITH_FORMATS: ReadonlySet<string> = new Set(['post']);

/** The names the platform gives the format terms (`get_post_format_strings`). */
export const FORMAT_NAMES: Readonly<Record<string, string>> = {
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
export const DEFAULT_CATEGORY_SLUG = 'uncategorized';

/** The user a body's `author` names (a user ID, or a login); 400 `invalid_author` when there is none. */
async function authorNamed(store: PublishingStore, author: number | string): Promise<number> {
  const text = String(author).trim();
  const user = /^\d+$/.test(text) ? await store.findUserById(Number(text)) : await store.findUserByLogin(text);
  if (!user) throw invalidAuthor();
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
  author: WriteInput['author'],
): Promise<number | undefined> {
  // PHP's empty(): no author named.
  if (author === undefined || author === '' || author === 0 || author === '0') return undefined;
  const authorId = await authorNamed(store, author);
  if (authorId === viewerId) return authorId;
  if (!roleCapabilities.has('edit_others_posts')) throw cannotPublishOthers();
  if (!(await store.capabilitiesOf(site.id, authorId)).has('edit_posts')) throw authorCannotPublish();
  return authorId;
}

/** A term list as the endpoint reads it: a comma list split, an array as it is, anything else (`null`) empty. */
const listed = (value: TermNames | null | undefined): (string | number)[] =>
  typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];

/** How a write's term names are read: v1.1 reads digits as a term ID (`names-or-ids`); v1.2 reads every name as a name (`names`). */
export type TermNaming = 'names-or-ids' | 'names';

/**
 * The terms a write names, by taxonomy, as the endpoint merges them: each
 * `terms` entry (a comma list or an array; `null` is none), then
 * `categories` and `tags` added to `terms.category` and `terms.post_tag`;
 * the IDs of `terms_by_id` apart, with v1.2's `categories_by_id` and
 * `tags_by_id` added to theirs.
 */
function termsNamed(body: WriteInput): {
  byName: Map<string, (string | number)[]>;
  byId: Map<string, (string | number)[]>;
} {
  const byName = new Map(Object.entries(body.terms ?? {}).map(([taxonomy, value]) => [taxonomy, listed(value)]));
  for (const { field, taxonomy } of SHORTHAND_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    byName.set(taxonomy, [...(byName.get(taxonomy) ?? []), ...listed(value)]);
  }
  const byId = new Map(Object.entries(body.terms_by_id ?? {}).map(([taxonomy, value]) => [taxonomy, listed(value)]));
  for (const { byId: field, taxonomy } of SHORTHAND_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    byId.set(taxonomy, [...(byId.get(taxonomy) ?? []), ...listed(value)]);
  }
  return { byName, byId };
}

/**
 * Sets the post's terms a write names (see `termsNamed`), each taxonomy
 * named replacing the post's terms there, for the taxonomies of the post's
 * type: existing terms by ID (v1.1: digits; `terms_by_id`) or by slug or
 * name; a name the site does not have is added when the caller may
 * (hierarchical taxonomies such as categories: `edit_terms`, which is
 * `manage_categories`; tags: `assign_terms`, which is `edit_posts`; v1.1
 * and v1.2 alike), its name filtered as a term endpoint's, else skipped; an unknown ID is skipped. Categories that
 * come out empty are the site's default category, as are those of a new
 * post whose write names none (`wp_insert_post` gives a post the
 * `default_category` option when it has no category).
 */
async function applyTerms(
  store: PublishingStore,
  site: SiteRecord,
  post: { id: number; type: string },
  roleCapabilities: ReadonlySet<string>,
  body: WriteInput,
  { created, naming }: { created: boolean; naming: TermNaming },
) {
  const ofType = (TAXONOMIES_OF_TYPE[post.type] ?? []).filter((taxonomy) => taxonomy !== 'post_format');
  const { byName, byId } = termsNamed(body);
  if (created && ofType.includes('category') && !byName.has('category') && !byId.has('category'))
    byName.set('category', []);
  for (const taxonomy of ofType) {
    if (!byName.has(taxonomy) && !byId.has(taxonomy)) continue;
    const hierarchical = HIERARCHICAL_TAXONOMIES.has(taxonomy);
    const ids: number[] = [];
    const names: StoredText[] = [];
    for (const item of byName.get(taxonomy) ?? []) {
      if (naming === 'names' && typeof item !== 'string') continue;
      // `term_exists` trims; `curl --data 'terms[category][]=123'` is an ID, not a name (v1.1).
      const text = String(item).trim();
      if (naming === 'names-or-ids' && /^\d+$/.test(text)) ids.push(Number(text));
      else {
        // A name as a new term would store it (no tags: `pre_term_name`), so an existing term is found by what it holds.
        const name = storedText('termName', text, roleCapabilities);
        if (name !== '') names.push(name);
      }
    }
    for (const item of byId.get(taxonomy) ?? []) {
      const text = String(item);
      if (/^\d+$/.test(text)) ids.push(Number(text));
    }
    const found = await store.findTerms(site.id, taxonomy, ids, names.map((name) => slugFromTitle(name)).concat(names));
    const termIds = found.filter((term) => ids.includes(term.id)).map((term) => term.id);
    // v1.1 and v1.2 alike: a hierarchical taxonomy's `edit_terms` (`manage_categories`), another's `assign_terms` (`edit_posts`).
    const mayAdd = roleCapabilities.has(hierarchical ? 'manage_categories' : 'edit_posts');
    for (const name of names) {
      const slug = slugFromTitle(name);
      const existing = found.find((term) => term.slug === slug || term.name === name);
      if (existing) termIds.push(existing.id);
      else if (mayAdd && slug !== '') termIds.push((await store.addTerm(site.id, taxonomy, name, slug)).id);
    }
    if (taxonomy === 'category' && !termIds.length) {
      const [fallback] = await store.findTerms(site.id, taxonomy, [], [DEFAULT_CATEGORY_SLUG]);
      if (fallback) termIds.push(fallback.id);
    }
    await store.setPostTerms(post.id, taxonomy, [...new Set(termIds)]);
  }
}

/** Sets the post's format: `default` and `standard` leave it without one; another format is its `post-format-*` term (added to the site when missing). */
async function applyFormat(
  store: PublishingStore,
  site: SiteRecord,
  postId: number,
  format: NonNullable<WriteInput['format']>,
) {
  const name = FORMAT_NAMES[format];
  if (!name) return store.setPostTerms(postId, 'post_format', []);
  const slug = `post-format-${format}`;
  const [existing] = (await store.findTerms(site.id, 'post_format', [], [slug])).filter((term) => term.slug === slug);
  const term = existing ?? (await store.addTerm(site.id, 'post_format', storedText('termName', name, new Set()), slug));
  await store.setPostTerms(postId, 'post_format', [term.id]);
}

/** PHP's `empty()`, as the platform tests metadata fields with it. */
const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === false ||
  value === 0 ||
  value === '' ||
  value === '0' ||
  (Array.isArray(value) && value.length === 0);

/** Protected metadata keys (`_` first): no caller may write them through the API (the platform's `is_protected_meta`)... */
const isProtectedKey = (key: string) => key.startsWith('_');

/** ...but these public ones, which the endpoint adds and updates for anyone who may edit the post (`WPCOM_JSON_API_Metadata::is_public`). */
const isPublicKey = (key: string | undefined) =>
  key !== undefined && (key === THUMBNAIL_KEY || key.startsWith('_wpas_') || key.startsWith('geo_'));

/** The featured image's metadata key: this store keeps it as the post's `featured_media_id`. */
const THUMBNAIL_KEY = '_thumbnail_id';

/** Whether a stored value is the `previous_value` a client named (the platform compares them as stored text). */
const sameValue = (stored: unknown, previous: unknown) =>
  stored === previous ||
  (typeof stored !== 'object' && typeof previous !== 'object' && String(stored) === String(previous));

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
    // The featured image is the post's own column (`featuredImageOf`); other protected keys only when public, and never deleted.
    if (targetKey === undefined || targetKey === THUMBNAIL_KEY) continue;
    const operationName = operation.operation ?? 'update';
    if (isProtectedKey(targetKey) && (!isPublicKey(targetKey) || operationName === 'delete')) continue;
    const previous = operation.previous_value;
    const ofKey = entries.filter((entry) => entry.key === targetKey);
    const matching = isEmpty(previous) ? ofKey : ofKey.filter((entry) => sameValue(entry.value, previous));
    switch (operationName) {
      case 'delete':
        await store.deletePostMetadata(byId ? [byId.id] : matching.map((entry) => entry.id));
        break;
      case 'add':
        // A public key is added whatever its value (the endpoint's `|| is_public( $meta->key )`).
        if (id === undefined && isEmpty(previous) && (!isEmpty(value) || isPublicKey(key)))
          await store.addPostMetadata(postId, targetKey, value ?? '');
        break;
      case 'update':
        if (value === undefined || value === null) break;
        // A key without entries gets one, whatever `previous_value` says (the platform's `update_metadata`).
        if (byId) await store.updatePostMetadata([byId.id], value);
        else if (!ofKey.length) await store.addPostMetadata(postId, targetKey, value);
        else
          await store.updatePostMetadata(
            matching.map((entry) => entry.id),
            value,
          );
        break;
    }
  }
}

/**
 * The featured image a write gives the post (its `featured_media_id`, the
 * platform's `_thumbnail_id`), or undefined when it names none: `featured_image`
 * (trimmed) empty removes it, an attachment ID of the site sets it, anything
 * else changes nothing (the platform would try to fetch it as a URL, and
 * there is no sideloading here); then the `metadata` operations on
 * `_thumbnail_id`, in turn, as `set_post_thumbnail` and `update_post_meta`
 * leave it: `update` sets its value (read as PHP's `(int)`, unless
 * `previous_value` is not the current one), `add` only when there is none,
 * `delete` nothing (a protected key).
 */
export async function featuredImageOf(
  store: PublishingStore,
  site: SiteRecord,
  body: WriteInput,
  current: number | null,
): Promise<number | null | undefined> {
  let featured: number | null | undefined;
  const image = body.featured_image?.trim();
  if (image === '') featured = null;
  else if (image !== undefined && /^\d+$/.test(image) && (await store.hasAttachment(site.id, Number(image))))
    featured = Number(image);
  for (const operation of body.metadata ?? []) {
    if (operation.key !== THUMBNAIL_KEY || !isEmpty(operation.id)) continue;
    const now = featured === undefined ? current : featured;
    const value = operation.value;
    const asId = /^\s*\d+/.exec(String(value ?? ''))?.[0];
    const id = asId === undefined ? 0 : Number(asId);
    switch (operation.operation ?? 'update') {
      case 'add':
        if (now === null && isEmpty(operation.previous_value)) featured = id || null;
        break;
      case 'update':
        if (value === undefined || value === null) break;
        if (!isEmpty(operation.previous_value) && now !== null && !sameValue(String(now), operation.previous_value))
          break;
        featured = id || null;
        break;
    }
  }
  return featured;
}

/**
 * Sets what the body names of the post's terms (for the taxonomies of its type) and metadata, after the post itself is saved;
 * a post just `created` without categories gets the site's default category.
 */
export async function applyWriteFields(
  store: PublishingStore,
  site: SiteRecord,
  post: { id: number; type: string },
  roleCapabilities: ReadonlySet<string>,
  body: WriteInput,
  { created = false, naming = 'names-or-ids' as TermNaming } = {},
): Promise<void> {
  await applyTerms(store, site, post, roleCapabilities, body, { created, naming });
  if (TYPES_WITH_FORMATS.has(post.type) && body.format !== undefined)
    await applyFormat(store, site, post.id, body.format);
  if (body.metadata?.length) await applyMetadata(store, post.id, body.metadata);
}
