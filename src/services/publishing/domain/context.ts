/** How `title`, `content` and `excerpt` are given: rendered HTML, or the stored text for editing. */
export type PostContext = 'display' | 'edit';

/** The `context` query parameter: `edit`, or `display` for anything else ("Any other value of context silently means display"). */
export const postContext = (value: string | undefined): PostContext => (value === 'edit' ? 'edit' : 'display');
