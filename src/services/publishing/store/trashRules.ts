/**
 * The platform's trash rules for slugs and statuses ("Trashing stores the
 * old status (and the trash time) beside the post; the slug gets a
 * `__trashed` suffix and the original slug is kept too. Restoring reads the
 * stored status, clears the stored values, and gives the post back its old
 * status and its original slug."), which the store's trash, restore and
 * writes follow (`kysely/trash.ts`, `kysely/writes.ts`; the store's
 * interface, `domain/publishingStore.ts`, says what they promise).
 */

/** The suffix a trashed post's slug gets, so that another post may take the slug meanwhile. */
export const TRASHED_SLUG_SUFFIX = '__trashed';

/** The status a trashed post gets back when nothing was remembered (the platform's default). */
export const STATUS_WITHOUT_TRASH_MEMORY = 'draft';

/** Statuses whose slug need not be unique (the platform's `wp_unique_post_slug` skips them). */
const UNPUBLISHED_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'auto-draft']);

/** The slug of a post once trashed: its slug plus `__trashed`, unless it already ends so. */
export function trashedSlug(slug: string): string {
  return slug.endsWith(TRASHED_SLUG_SUFFIX) ? slug : `${slug}${TRASHED_SLUG_SUFFIX}`;
}

/** The slug a restored post asks for: the remembered original, else its own without the `__trashed` suffix. */
export function desiredSlugOnRestore(currentSlug: string, originalSlug: string | undefined): string {
  if (originalSlug) return originalSlug;
  return currentSlug.endsWith(TRASHED_SLUG_SUFFIX) ? currentSlug.slice(0, -TRASHED_SLUG_SUFFIX.length) : currentSlug;
}

/** Whether a post with this status must have a slug no other post of its type holds. */
export const slugMustBeUnique = (status: string, slug: string): boolean =>
  slug !== '' && !UNPUBLISHED_STATUSES.has(status);

/**
 * The desired slug if free, else the first free `slug-2`, `slug-3`, ... (the
 * platform's `wp_unique_post_slug`), given the slugs other posts hold.
 */
export function uniqueSlug(desired: string, taken: ReadonlySet<string>): string {
  if (!taken.has(desired)) return desired;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${desired}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
