import type { PostChanges } from '../domain/postColumns.js';
import { MAX_STORED_INTEGER } from '../../../platform/store/integers.js';
import { storedTime } from '../domain/dates.js';
import { phpTruthy } from '../domain/phpTruthy.js';
import { storedPostText, type WithStoredText } from '../domain/storedText.js';
import { invalidDateField, invalidIntegerField } from '../errors.js';
import { slugFromTitle } from './postObject.js';
import type { WriteInput } from './writeInput.js';

/*
 * A post write's body read into the post's columns, as the platform reads
 * it: the flags stored 0/1, the slug made a slug, the date stored to the
 * second, the status a save lands on, the text as the caller may store it.
 * `write.ts` decides who may write what and in which order.
 */

/** Statuses whose posts have a slug from the start (drafts and pending posts get one when published). */
export const SLUGGED_STATUSES: ReadonlySet<string> = new Set(['publish', 'private', 'future']);

/** Post types whose posts have a parent (the platform's hierarchical types). */
const HIERARCHICAL_TYPES: ReadonlySet<string> = new Set(['page']);

/** A cast flag as stored (0/1). */
const flag = (value: boolean | undefined): number | undefined => (value === undefined ? undefined : value ? 1 : 0);

/** The slug a write gives, made a slug; none for an empty one (PHP's `empty()`: `""` and `"0"`), which the platform ignores. */
export const givenSlug = (body: WriteInput): string | undefined => {
  if (!body.slug || body.slug === '0') return undefined;
  return slugFromTitle(body.slug) || undefined;
};

/** A body `date` as stored (ISO-8601 UTC, to the second): no offset means UTC; 400 naming it when it is no time. */
export function storedDate(value: string, invalid: () => Error = invalidDateField): string {
  const withZone = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value) || !value.includes('T') ? value : `${value}Z`;
  const time = new Date(withZone);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) {
    throw invalid();
  }
  return storedTime(time);
}

/** `open` / `closed` for comments and pings from `discussion` (`*_open` wins over `*_status`). */
function discussionOf(body: WriteInput): Pick<PostChanges, 'comment_status' | 'ping_status'> {
  const discussion = body.discussion ?? {};
  const status = (open: boolean | number | string | undefined, given: 'open' | 'closed' | undefined) =>
    open !== undefined ? (phpTruthy(open) ? 'open' : 'closed') : given;
  const changes: Pick<PostChanges, 'comment_status' | 'ping_status'> = {};
  const comments = status(discussion.comments_open, discussion.comment_status);
  const pings = status(discussion.pings_open, discussion.ping_status);
  if (comments) changes.comment_status = comments;
  if (pings) changes.ping_status = pings;
  return changes;
}

/** An integer field as a stored column holds it (32 bits); a cast text past that is 400 naming the field. */
function int32(name: string, value: number | undefined): number | undefined {
  if (value !== undefined && (value < -MAX_STORED_INTEGER - 1 || value > MAX_STORED_INTEGER)) {
    throw invalidIntegerField(name);
  }
  return value;
}

/** The columns a body sets besides status, date and slug (a field not given is left out). */
export function fieldsOf(body: StoredWriteInput, type: string): PostChanges {
  const hierarchical = HIERARCHICAL_TYPES.has(type);
  const changes: PostChanges = {
    title: body.title,
    content: body.content,
    excerpt: body.excerpt,
    password: body.password,
    sticky: flag(body.sticky),
    likes_enabled: flag(body.likes_enabled),
    sharing_enabled: flag(body.sharing_enabled),
    menu_order: int32('menu_order', body.menu_order),
    page_template: body.page_template,
    // The platform drops `parent` for types without hierarchy.
    parent_id:
      hierarchical && body.parent !== undefined ? (int32('parent', body.parent)! > 0 ? body.parent : null) : undefined,
    ...discussionOf(body),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

/**
 * The status a save asks for, as the platform decides it: `future` means
 * `publish`; `publish` or `private` by a caller without `publish_posts`
 * becomes `pending` (submitted for review); a published post dated ahead is
 * scheduled (`future`), a scheduled one dated past is published.
 */
export function scheduledStatus(status: string, date: string, now: Date): string {
  if (status === 'publish' && Date.parse(date) > now.getTime()) return 'future';
  if (status === 'future' && Date.parse(date) <= now.getTime()) return 'publish';
  return status;
}

/** A write's body with its title, content and excerpt as they may be stored (`storedText`). */
export type StoredWriteInput = WithStoredText<WriteInput>;

/**
 * The body as it may be saved by this caller: title, content and excerpt as
 * `storedText` keeps them for the caller's role (filtered as the platform's
 * kses filters them, unless the caller has `unfiltered_html`).
 */
export const allowedText = (body: WriteInput, roleCapabilities: ReadonlySet<string>): StoredWriteInput =>
  storedPostText(body, roleCapabilities);

/**
 * The `date` a save applies: none for a caller without `publish_posts`
 * (contributors do not choose the date of publication: their post is dated
 * by its save, and by the publication of whoever publishes it); a date that
 * is no time is a 400 either way.
 */
export function askedDate(body: WriteInput, roleCapabilities: ReadonlySet<string>): string | undefined {
  const date = body.date === undefined ? undefined : storedDate(body.date);
  return roleCapabilities.has('publish_posts') ? date : undefined;
}
