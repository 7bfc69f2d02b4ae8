import { createHash } from 'node:crypto';
import type { AnonymousProfile } from '../../../../generated/profiles/types.gen.js';

/** The five characters HTML gives a meaning to, as entities: safe in text and in quoted attribute values. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);

/** The page's only style, named in the Content-Security-Policy by its hash (no inline script, no other style). */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327;background:#f6f7f7}
main{max-width:40rem;margin:0 auto;padding:2rem 1rem}
.card{background:#fff;border:1px solid #dcdcde;border-radius:8px;padding:1.5rem;text-align:center}
.avatar{width:128px;height:128px;border-radius:50%}
h1{font-size:1.75rem;margin:.75rem 0 .25rem;overflow-wrap:anywhere}
.meta{color:#50575e;margin:.25rem 0;overflow-wrap:anywhere}
.description{text-align:left;white-space:pre-line;overflow-wrap:anywhere;margin:1rem 0}
ul{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem;justify-content:center}
li a{display:inline-flex;align-items:center;gap:.4rem;padding:.25rem .75rem;border:1px solid #dcdcde;border-radius:999px;color:#2271b1;text-decoration:none}
li img{border-radius:3px}
.missing{text-align:center}
`.trim();

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The page's Content-Security-Policy: no script at all, its one style by
 * hash, images from this origin and from where the avatars and icons are
 * served (`AVATAR_BASE_URL`'s and `PUBLIC_URL`'s origins), nothing may
 * frame it.
 */
export const profilePagePolicy = (imageOrigins: readonly string[]): string =>
  `default-src 'none'; script-src 'none'; style-src ${STYLE_HASH}; img-src 'self' ${imageOrigins.join(' ')}; ` +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Size in pixels of the avatar shown on the page and named as `og:image`. */
const AVATAR_SIZE = 256;

const page = (head: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">\n${head}\n<style>${STYLE}</style>\n</head>\n` +
  `<body>\n<main>\n${body}\n</main>\n</body>\n</html>\n`;

/** The short line under a profile's name: job title and company, then location and pronouns. */
const lines = (profile: AnonymousProfile): string[] =>
  [
    [profile.job_title, profile.company].filter(Boolean).join(', '),
    profile.location,
    profile.pronouns,
    profile.pronunciation && `Pronounced ${profile.pronunciation}`,
  ].filter((line): line is string => Boolean(line));

/** The `og:description`: the description, else the title and place, else a plain sentence. */
const summaryOf = (profile: AnonymousProfile): string =>
  profile.description || lines(profile).join(' · ') || `${profile.display_name}'s profile`;

/**
 * A profile's public page: what an anonymous lookup answers (`profile`),
 * with Open Graph tags (`og:type` profile) and a canonical link to its
 * `profile_url`. Every value is escaped.
 */
export function profilePageHtml(profile: AnonymousProfile): string {
  const name = escapeHtml(profile.display_name || profile.hash);
  const url = escapeHtml(profile.profile_url);
  const image = escapeHtml(`${profile.avatar_url}?s=${AVATAR_SIZE}`);
  const summary = escapeHtml(summaryOf(profile));
  const head = [
    `<title>${name}</title>`,
    `<link rel="canonical" href="${url}">`,
    `<meta name="description" content="${summary}">`,
    `<meta property="og:type" content="profile">`,
    `<meta property="og:title" content="${name}">`,
    `<meta property="og:description" content="${summary}">`,
    `<meta property="og:url" content="${url}">`,
    `<meta property="og:image" content="${image}">`,
    `<meta property="og:image:width" content="${AVATAR_SIZE}">`,
    `<meta property="og:image:height" content="${AVATAR_SIZE}">`,
    `<meta name="twitter:card" content="summary">`,
  ].join('\n');
  const alt = escapeHtml(profile.avatar_alt_text || `${profile.display_name || 'Profile'}'s avatar`);
  // Each account with its service's icon (decorative: the label names the service).
  const accounts = profile.verified_accounts.map(
    (account) =>
      `<li><a href="${escapeHtml(account.url)}" rel="me nofollow noopener">` +
      `<img src="${escapeHtml(account.service_icon)}" width="16" height="16" alt="">` +
      `${escapeHtml(account.service_label)}</a></li>`,
  );
  const body = [
    '<article class="card">',
    `<img class="avatar" src="${image}" width="128" height="128" alt="${alt}">`,
    `<h1>${name}</h1>`,
    ...lines(profile).map((line) => `<p class="meta">${escapeHtml(line)}</p>`),
    ...(profile.description ? [`<p class="description">${escapeHtml(profile.description)}</p>`] : []),
    ...(accounts.length ? ['<ul aria-label="Verified accounts">', ...accounts, '</ul>'] : []),
    '</article>',
  ].join('\n');
  return page(head, body);
}

/** A page that only says what went wrong: a name that is no profile, a caller over the limit, a store away. */
export const noticePageHtml = (title: string, message: string): string =>
  page(
    `<title>${escapeHtml(title)}</title>\n<meta name="robots" content="noindex">`,
    `<section class="card missing">\n<h1>${escapeHtml(title)}</h1>\n<p class="meta">${escapeHtml(message)}</p>\n</section>`,
  );
