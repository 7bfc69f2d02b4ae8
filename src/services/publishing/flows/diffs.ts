import { diffLines, diffWords, type Change } from 'diff';
import type { DiffPart, PostDiffs } from '../../../../generated/publishing/types.gen.js';
import type { Viewer } from '../domain/access.js';
import { editablePost } from './autosave.js';
import type { FlowDeps } from './deps.js';
import type { RevisionRecord } from '../domain/records.js';
import { served } from '../../../platform/ops/served.js';

/**
 * A post's revisions and the changes between them, as the editors' revision
 * screens read them (`/sites/{site}/post/{ID}/diffs`): word by word, runs
 * kept (`copy`), added (`add`) and removed (`del`).
 */

/**
 * The most edits (tokens added or removed) a word or line diff may look for
 * before it gives up: the diff's work grows with the texts' length times
 * the edits, so this bounds one diff's time on the event loop whatever the
 * texts (docs/operations.md#bounded-work).
 */
export const MAX_EDITS = 500;

/**
 * The changes from one text to the next: word by word; when the texts
 * differ by more than `MAX_EDITS` words, line by line (as the platform's own
 * revision screens compare lines first); when they differ by more lines
 * than that too, the whole text removed and the whole text added.
 */
async function changes(before: string, after: string): Promise<Change[]> {
  const bounded = { maxEditLength: MAX_EDITS };
  const words = diffWords(before, after, bounded);
  if (words) return words;
  await served();
  const lines = diffLines(before, after, bounded);
  if (lines) return lines;
  const whole: Change[] = [];
  if (before) whole.push({ value: before, removed: true, added: false, count: 1 });
  if (after) whole.push({ value: after, added: true, removed: false, count: 1 });
  return whole;
}

/** Words in a run of text. */
const wordsIn = (text: string) => text.match(/\S+/g)?.length ?? 0;

/** The runs from one text to the next, and how many words each side added and removed. */
async function runs(before: string, after: string): Promise<{ parts: DiffPart[]; add: number; del: number }> {
  const parts: DiffPart[] = [];
  let add = 0;
  let del = 0;
  for (const change of await changes(before, after)) {
    if (change.added) add += wordsIn(change.value);
    if (change.removed) del += wordsIn(change.value);
    parts.push({ op: change.added ? 'add' : change.removed ? 'del' : 'copy', value: change.value });
  }
  return { parts, add, del };
}

/** A stored ISO-8601 UTC time as the platform's `*_gmt` columns hold it: `YYYY-MM-DD HH:MM:SS`. */
const gmtColumn = (stored: string) => new Date(stored).toISOString().slice(0, 19).replace('T', ' ');

/** A revision as the diffs answer lists it, by the platform's column names. */
const revisionObject = (revision: RevisionRecord) => ({
  post_date_gmt: gmtColumn(revision.date),
  post_modified_gmt: gmtColumn(revision.date),
  post_author: String(revision.authorId ?? 0),
  id: revision.id,
  post_content: revision.content,
  post_excerpt: revision.excerpt,
  post_title: revision.title,
});

/**
 * Every revision of the post (oldest first) with its changes from the one
 * before (from 0, an empty post, for the first), after the site, the post
 * and the right to edit it (as the autosave read checks them).
 */
export async function postDiffs(
  deps: Pick<FlowDeps, 'store'>,
  request: { site: string; postId: number; viewerId: number },
): Promise<PostDiffs> {
  const viewer: Viewer = { id: request.viewerId, loggedIn: true };
  const { post } = await editablePost(deps.store, request.site, viewer, request.postId);
  const revisions = await deps.store.postRevisions(post.id);
  const diffs: PostDiffs['diffs'] = [];
  for (const [index, revision] of revisions.entries()) {
    // Each diff is its own bounded slice (two when it falls back to lines); the event loop serves what waits between two.
    if (index > 0) await served();
    const before = index > 0 ? revisions[index - 1] : undefined;
    const title = await runs(before?.title ?? '', revision.title);
    await served();
    const content = await runs(before?.content ?? '', revision.content);
    diffs.push({
      from: before?.id ?? 0,
      to: revision.id,
      diff: {
        post_title: title.parts,
        post_content: content.parts,
        totals: { add: title.add + content.add, del: title.del + content.del },
      },
    });
  }
  return {
    diffs,
    revisions: Object.fromEntries(revisions.map((revision) => [String(revision.id), revisionObject(revision)])),
  };
}
