import { LRUCache } from 'lru-cache';
import { onFirstUse } from '../../../platform/onFirstUse.js';
import type sanitizeHtml from 'sanitize-html';

/**
 * The platform's HTML filter for posts (WordPress kses), as `sanitize-html`
 * options: what a user without `unfiltered_html` may save in a post's title,
 * content and excerpt (`kses_init_filters`: `title_save_pre` runs
 * `wp_filter_kses`, whose context is no named one, so the small
 * `$allowedtags`; `content_save_pre` and `excerpt_save_pre` run
 * `wp_filter_post_kses`, `$allowedposttags` with the global attributes).
 * Every URL attribute keeps only the protocols of `wp_allowed_protocols()`.
 * Tags not allowed are dropped with their text kept, except `script`,
 * `style` and the like, which go with their text (kses keeps that text as
 * plain text; here it is not kept, see docs/publishing.md).
 */

/** `wp_allowed_protocols()`. */
export const ALLOWED_PROTOCOLS = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
]; // prettier-ignore

/** `wp_kses_uri_attributes()`: attributes whose value is a URL, checked against the allowed protocols. */
const URI_ATTRIBUTES = [
  'action',
  'archive',
  'background',
  'cite',
  'classid',
  'codebase',
  'data',
  'formaction',
  'href',
  'icon',
  'longdesc',
  'manifest',
  'poster',
  'profile',
  'src',
  'usemap',
  'xmlns',
]; // prettier-ignore

/** `_wp_add_global_attributes()`: attributes every tag of `$allowedposttags` may carry. */
const GLOBAL_ATTRIBUTES = [
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-details',
  'aria-expanded',
  'aria-hidden',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'class',
  'data-*',
  'dir',
  'hidden',
  'id',
  'lang',
  'style',
  'title',
  'role',
  'xml:lang',
]; // prettier-ignore

const ALIGN = ['align'];
const TABLE_PART = ['align', 'char', 'charoff', 'valign'];
const CELL = [
  'abbr',
  'align',
  'axis',
  'bgcolor',
  'char',
  'charoff',
  'colspan',
  'headers',
  'height',
  'nowrap',
  'rowspan',
  'scope',
  'valign',
  'width',
];

/** `$allowedposttags` (WordPress 6.4+), each tag's own attributes; `object` (PDF only, checked by a callback) is left out. */
const POST_TAGS: Record<string, string[]> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: ALIGN,
  aside: ALIGN,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: ALIGN,
  cite: [],
  code: [],
  col: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  colgroup: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: ALIGN,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: ALIGN,
  figcaption: ALIGN,
  font: ['color', 'face', 'size'],
  footer: ALIGN,
  h1: ALIGN,
  h2: ALIGN,
  h3: ALIGN,
  h4: ALIGN,
  h5: ALIGN,
  h6: ALIGN,
  header: ALIGN,
  hgroup: ALIGN,
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width'],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ALIGN,
  li: ['align', 'value'],
  main: ALIGN,
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: ALIGN,
  p: ALIGN,
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: ALIGN,
  section: ALIGN,
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: ALIGN,
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: TABLE_PART,
  td: CELL,
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: TABLE_PART,
  th: CELL,
  thead: TABLE_PART,
  title: [],
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  ol: ['start', 'type', 'reversed'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
}; // prettier-ignore

/** `$allowedtags`: what a title may hold (no global attributes). */
const TITLE_TAGS: Record<string, string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
}; // prettier-ignore

/**
 * CSS properties a `style` attribute may set (`safecss_filter_attr`'s
 * `safe_style_css`, the common part), each with a value free of what that
 * filter refuses (`\ ( & } =` and comments; so no `url()` or `calc()`).
 */
const SAFE_STYLE_PROPERTIES = [
  'background-color',
  'border',
  'border-radius',
  'border-width',
  'border-color',
  'border-style',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-collapse',
  'border-spacing',
  'caption-side',
  'columns',
  'column-count',
  'column-gap',
  'column-width',
  'color',
  'font',
  'font-family',
  'font-size',
  'font-style',
  'font-variant',
  'font-weight',
  'letter-spacing',
  'line-height',
  'text-align',
  'text-decoration',
  'text-indent',
  'text-transform',
  'height',
  'min-height',
  'max-height',
  'width',
  'min-width',
  'max-width',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'clear',
  'cursor',
  'direction',
  'float',
  'list-style-type',
  'overflow',
  'vertical-align',
  'white-space',
  'writing-mode',
  'display',
  'gap',
  'flex',
  'flex-direction',
  'flex-wrap',
  'align-items',
  'justify-content',
  'object-fit',
  'object-position',
  'aspect-ratio',
]; // prettier-ignore
const SAFE_STYLE_VALUE = /^[^\\()&}={<>]*$/;

function options(tags: Record<string, string[]>, global: string[]): sanitizeHtml.IOptions {
  return {
    allowedTags: Object.keys(tags),
    allowedAttributes: Object.fromEntries(
      Object.entries(tags).map(([tag, attributes]) => [tag, [...attributes, ...global]]),
    ),
    allowedSchemes: ALLOWED_PROTOCOLS,
    allowedSchemesByTag: {},
    allowedSchemesAppliedToAttributes: URI_ATTRIBUTES,
    allowProtocolRelative: true,
    allowedStyles: { '*': Object.fromEntries(SAFE_STYLE_PROPERTIES.map((property) => [property, [SAFE_STYLE_VALUE]])) },
    // kses keeps HTML comments (filtered); they can carry nothing a browser runs, but nothing needs them either.
    allowVulnerableTags: false,
    disallowedTagsMode: 'discard',
  };
}

const POST_OPTIONS = options(POST_TAGS, GLOBAL_ATTRIBUTES);
const TITLE_OPTIONS = options(TITLE_TAGS, []);
const OPTIONS = { post: POST_OPTIONS, title: TITLE_OPTIONS, plain: options({}, []) } as const;

/** Whether the text could hold markup the filter would change: no `<`, `>` or `&`, nothing to filter. */
const mayHoldMarkup = (text: string) => /[<>&]/.test(text);

/** Most characters of filter inputs and outputs kept (about 8 MiB of text). */
const FILTERED_CACHE_CHARACTERS = 4 * 1024 * 1024;

/**
 * Filtered texts, remembered by their input: a post stored before the
 * filter (`html_unchecked`) is filtered on every read until it is saved
 * again, and the filter is a parse and serialisation of the whole text
 * (milliseconds for a long post).
 */
const filtered = new LRUCache<string, string>({
  maxSize: FILTERED_CACHE_CHARACTERS,
  sizeCalculation: (output, key) => output.length + key.length || 1,
});

/**
 * sanitize-html, loaded by the first text that needs filtering (once per
 * process; what that first call waits for is in docs/performance.md), not
 * at start-up: with its parser and postcss it is memory that an instance
 * serving no publishing write, and no post stored before the filter, never
 * needs (docs/decisions/lazy-packages.md).
 */
const sanitizer = onFirstUse<typeof sanitizeHtml>('sanitize-html');

function filter(html: string, kind: 'post' | 'title' | 'plain'): string {
  if (!mayHoldMarkup(html)) return html;
  const key = `${kind}\u0000${html}`;
  let output = filtered.get(key);
  if (output === undefined) {
    filtered.set(key, (output = sanitizer()(html, OPTIONS[kind])));
  }
  return output;
}

/** A post's content or excerpt as kses (`wp_filter_post_kses`) leaves it for a user without `unfiltered_html`. */
export const filterPostHtml = (html: string): string => filter(html, 'post');

/** A post's title as kses (`wp_filter_kses` on `title_save_pre`) leaves it for a user without `unfiltered_html`. */
export const filterTitleHtml = (html: string): string => filter(html, 'title');

/** No tags at all (`sanitize_text_field`'s `wp_strip_all_tags`, then `_wp_specialchars`): text with `&`, `<`, `>` as entities, its runs of white space one space. */
export const filterPlainText = (text: string): string =>
  filter(text, 'plain')
    .replace(/[\t\n\r ]+/g, ' ')
    .trim();
