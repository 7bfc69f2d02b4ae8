import { autop as wordpressAutop } from '@wordpress/autop';
import { replace, type Shortcode } from '@wordpress/shortcode';
import { LRUCache } from 'lru-cache';

/** Most characters of autop inputs and outputs kept (about 16 MiB of text). */
const AUTOP_CACHE_CHARACTERS = 8 * 1024 * 1024;

const autopped = new LRUCache<string, string>({
  maxSize: AUTOP_CACHE_CHARACTERS,
  sizeCalculation: (html, text) => html.length + text.length || 1,
});

/**
 * `@wordpress/autop`, remembered by its input: it is a pure function of the
 * text, dozens of regular-expression passes over it, and the same post
 * renders the same text again and again (every read, trash and restore).
 */
function autop(text: string): string {
  let html = autopped.get(text);
  if (html === undefined) autopped.set(text, (html = wordpressAutop(text)));
  return html;
}

/** An attachment of the post, as much of it as the shortcodes need. */
export interface RenderAttachment {
  ID: number;
  URL: string;
  title: string;
  caption: string;
  alt: string;
  width: number;
  height: number;
  mime_type: string;
}

/** What rendering a post needs besides its text. */
export interface RenderContext {
  /** The post's attachments, in any order. */
  attachments: RenderAttachment[];
  /** The post's ID, for the gallery's `galleryid-{ID}` class; WordPress uses 0 without a post. */
  postId?: number;
}

/** The registered shortcodes, one alternation so that one pass expands them all. */
const REGISTERED_TAGS = 'caption|gallery|embed';

/**
 * Most registered shortcodes one text expands or strips, its nested ones
 * included: finding a shortcode scans the rest of the text for its closing
 * tag, so the work grows with their number times the text's length. Past it
 * the rest of the text is left as written (docs/operations.md#bounded-work).
 */
export const MAX_SHORTCODES = 100;

/** Most gallery images one text renders, all its galleries together: past it a gallery is left as written. */
export const MAX_GALLERY_IMAGES = 500;

/** Where a registered shortcode opens (an escaped `[[tag]]` too: it costs the same scan). */
const OPENER = new RegExp(`\\[(?:${REGISTERED_TAGS})(?![\\w-])`, 'g');

/**
 * `text` split where its shortcode number `allowed + 1` opens: the part
 * whose shortcodes are handled, and the rest, left as written.
 */
function withinShortcodeBudget(text: string, allowed: number): [handled: string, rest: string] {
  const opener = new RegExp(OPENER);
  let seen = 0;
  for (let found = opener.exec(text); found !== null; found = opener.exec(text)) {
    if (seen++ === Math.max(0, allowed)) return [text.slice(0, found.index), text.slice(found.index)];
  }
  return [text, ''];
}

/** The number of words in an excerpt generated from the content (WordPress's `excerpt_length`). */
const EXCERPT_WORDS = 55;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
};

/** Escapes text for HTML content and quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** WordPress's `sanitize_html_class`: drops percent-encoded octets and anything but `A-Za-z0-9_-`. */
function sanitizeHtmlClass(value: string): string {
  return value.replace(/%[a-fA-F0-9]{2}/g, '').replace(/[^A-Za-z0-9_-]/g, '');
}

/** PHP's `intval` on a shortcode attribute: leading integer, else 0. */
function toInt(value: string): number {
  const parsed = Number.parseInt(value.trim(), 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** WordPress's HTML5 `[caption]`: a `<figure>` holding the image and a `<figcaption>`. */
function renderCaption(shortcode: Shortcode, expand: (text: string) => string): string {
  const named = shortcode.attrs.named;
  let content = shortcode.content ?? '';
  let caption = closedHtml(named.caption);
  if (caption === undefined) {
    const split = /((?:<a [^>]+>\s*)?<img [^>]+>(?:\s*<\/a>)?)(.*)/is.exec(content);
    if (split) {
      content = split[1] ?? '';
      caption = (split[2] ?? '').trim();
    }
  }
  content = expand(content);
  const width = toInt(named.width ?? '');
  if (width < 1 || !caption) return content;

  const id = sanitizeHtmlClass(named.id ?? '');
  const captionId = named.caption_id ? sanitizeHtmlClass(named.caption_id) : id && `caption-${id.replaceAll('_', '-')}`;
  const idAttr = id ? `id="${escapeHtml(id)}" ` : '';
  const describedBy = captionId ? `aria-describedby="${escapeHtml(captionId)}" ` : '';
  const captionIdAttr = captionId ? `id="${escapeHtml(captionId)}" ` : '';
  const className = `wp-caption ${named.align ?? 'alignnone'} ${named.class ?? ''}`.trim();
  return (
    `<figure ${idAttr}${describedBy}style="width: ${width}px" class="${escapeHtml(className)}">${content}` +
    `<figcaption ${captionIdAttr}class="wp-caption-text">${caption}</figcaption></figure>`
  );
}

/**
 * WordPress's HTML5 `[gallery]` of the post's image attachments, linked to
 * their files, and how many images it shows; undefined (left as written)
 * when it would show more than `imagesLeft`.
 */
function renderGallery(
  shortcode: Shortcode,
  ctx: RenderContext,
  selector: string,
  imagesLeft: number,
): { html: string; images: number } | undefined {
  const named = shortcode.attrs.named;
  const images = ctx.attachments.filter((attachment) => attachment.mime_type.startsWith('image/'));
  const selected =
    named.ids === undefined
      ? images
      : [...new Set(named.ids.split(/[\s,]+/).map((id) => Math.abs(toInt(id))))].flatMap((id) =>
          images.filter((image) => image.ID === id),
        );
  if (selected.length === 0) return { html: '', images: 0 };
  if (selected.length > imagesLeft) return undefined;

  const columns = named.columns === undefined ? 3 : toInt(named.columns);
  const size = escapeHtml(sanitizeHtmlClass(named.size ?? 'thumbnail'));
  const items = selected.map((image) => {
    const caption = image.caption.trim();
    const captionId = `${selector}-${image.ID}`;
    const orientation = image.height > image.width ? 'portrait' : 'landscape';
    const url = escapeHtml(image.URL);
    const img =
      `<img width="${image.width}" height="${image.height}" src="${url}" class="attachment-${size} size-${size}" ` +
      `alt="${escapeHtml(image.alt)}"${caption ? ` aria-describedby="${captionId}"` : ''} />`;
    const figcaption = caption
      ? `<figcaption class="wp-caption-text gallery-caption" id="${captionId}">${caption}</figcaption>`
      : '';
    return `<figure class="gallery-item"><div class="gallery-icon ${orientation}"><a href="${url}">${img}</a></div>${figcaption}</figure>`;
  });
  return {
    html:
      `<div id="${selector}" class="gallery galleryid-${ctx.postId ?? 0} gallery-columns-${columns} gallery-size-${size}">` +
      `${items.join('')}</div>`,
    images: selected.length,
  };
}

/** `[embed]URL[/embed]` without fetching oEmbed: WordPress's link fallback inside an embed figure. */
function renderEmbed(shortcode: Shortcode): string {
  const url = (shortcode.content || shortcode.attrs.named.src || '').trim().replaceAll('&amp;', '&');
  if (!/^https?:\/\//i.test(url)) return escapeHtml(url);
  const escaped = escapeHtml(url);
  return `<figure class="wp-block-embed"><div class="wp-block-embed__wrapper"><a href="${escaped}">${escaped}</a></div></figure>`;
}

/**
 * An HTML tag, comment or CDATA section of a text, as WordPress's
 * `wp_html_split` finds them (a `<` to the next `>`, or to the end).
 */
const HTML_PART = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[^>]*>?/g;

/**
 * Runs `work` (which finds shortcodes) on `text` with the brackets inside
 * HTML tags set aside, then gives them back: a shortcode is found only in the
 * text between tags, never inside a tag or across its attributes, so
 * expanding or stripping one cannot move where an attribute ends (text that
 * looks like an attribute stays text). WordPress's `do_shortcodes_in_html_tags`
 * with every bracket of a tag encoded (see docs/publishing.md for what it
 * expands inside attribute values and this does not); `&#91;` and `&#93;`
 * written in the text become `&#091;` and `&#093;` first, as there, so that
 * only the brackets set aside come back as brackets.
 */
function outsideTags(text: string, work: (text: string) => string): string {
  if (!text.includes('<')) return work(text);
  const guarded = text
    .replaceAll('&#91;', '&#091;')
    .replaceAll('&#93;', '&#093;')
    .replace(HTML_PART, (part) => (/[[\]]/.test(part) ? part.replaceAll('[', '&#91;').replaceAll(']', '&#93;') : part));
  return work(guarded).replaceAll('&#91;', '[').replaceAll('&#93;', ']');
}

/**
 * A shortcode attribute's value as WordPress's `shortcode_parse_atts` keeps
 * it: one holding a `<` that does not close (`<` without its `>` before the
 * next `<` or the end) is empty, so a value can hold whole tags but never
 * the start of one, whose attributes would run on into what follows.
 */
function closedHtml(value: string | undefined): string | undefined {
  if (value === undefined || !value.includes('<')) return value;
  return /^[^<]*(?:<[^>]*>[^<]*)*$/.test(value) ? value : '';
}

/** A `replace` callback's answer that leaves the shortcode as written (the library keeps the match for anything but text). */
const AS_WRITTEN = undefined as unknown as string;

/**
 * An expander of the registered shortcodes for one post (galleries numbered
 * from 1); others are left as written, and so are those past the text's
 * budget (`MAX_SHORTCODES`, `MAX_GALLERY_IMAGES`).
 */
function createExpander(ctx: RenderContext): (text: string) => string {
  let galleries = 0;
  let shortcodes = MAX_SHORTCODES;
  let images = MAX_GALLERY_IMAGES;
  const expand = (text: string): string => {
    // No `[`, no shortcode: @wordpress/shortcode compiles its expression anew on every call.
    if (!text.includes('[')) return text;
    const [handled, rest] = withinShortcodeBudget(text, shortcodes);
    const expanded = replace(REGISTERED_TAGS, handled, (shortcode) => {
      if (shortcodes <= 0) return AS_WRITTEN;
      shortcodes--;
      if (shortcode.tag === 'caption') return renderCaption(shortcode, expand);
      if (shortcode.tag === 'gallery') {
        const html = renderGallery(shortcode, ctx, `gallery-${galleries + 1}`, images);
        if (html === undefined) return AS_WRITTEN;
        galleries++;
        images -= html.images;
        return html.html;
      }
      return renderEmbed(shortcode);
    });
    return expanded + rest;
  };
  return expand;
}

/** Removes the registered shortcodes, content included (WordPress's `strip_shortcodes`), within `MAX_SHORTCODES`. */
function stripShortcodes(text: string): string {
  if (!text.includes('[')) return text;
  return outsideTags(text, (guarded) => {
    const [handled, rest] = withinShortcodeBudget(guarded, MAX_SHORTCODES);
    return replace(REGISTERED_TAGS, handled, () => '') + rest;
  });
}

/** WordPress's `wp_strip_all_tags`: drops tags, and `<script>`/`<style>` with their content. */
function stripAllTags(html: string): string {
  return html.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, '');
}

/**
 * Renders a post's content for `context=display`.
 *
 * "context=display renders title, content and excerpt as HTML: shortcodes expanded and paragraphs added,
 * using the platform's own published JavaScript packages for both (`@wordpress/shortcode` and
 * `@wordpress/autop`). At least `[caption]`, `[gallery]` (from the post's attachments) and `[embed]` are
 * registered; unknown shortcodes stay as written."
 */
export function renderContent(raw: string, ctx: RenderContext): string {
  // Shortcodes first, then autop: @wordpress/autop has no shortcode_unautop, so a block shortcode left for later would end up in <p>…</p>, while the expanded <figure>/<div> is a block autop leaves unwrapped.
  return autop(outsideTags(raw, createExpander(ctx)));
}

/**
 * Renders a post's title for `context=display`.
 *
 * "context=display renders title … as HTML": titles are stored as HTML and WordPress does not autop them,
 * so the stored title is the display title.
 */
export function renderTitle(raw: string): string {
  return raw;
}

/**
 * Renders a post's excerpt for `context=display`, generating one from the content when none is stored.
 *
 * "context=display renders … excerpt as HTML … paragraphs added": a stored excerpt is autop'd with the
 * registered shortcodes stripped; an empty one is WordPress's generated excerpt (shortcodes stripped, tags
 * stripped, the first 55 words, `&hellip;` when cut), autop'd.
 */
export function renderExcerpt(rawExcerpt: string, rawContent: string): string {
  if (rawExcerpt.trim() !== '') return autop(stripShortcodes(rawExcerpt));
  const words = stripAllTags(autop(stripShortcodes(rawContent)))
    .split(/[\n\r\t ]+/)
    .filter(Boolean);
  const text = words.length > EXCERPT_WORDS ? `${words.slice(0, EXCERPT_WORDS).join(' ')}&hellip;` : words.join(' ');
  return autop(text);
}

/**
 * Renders a comment's text for display: paragraphs added with `@wordpress/autop`; the platform expands no
 * shortcodes in comments.
 */
export function renderComment(raw: string): string {
  return autop(raw);
}
